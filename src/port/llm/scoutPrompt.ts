import { z } from 'zod';
import type { LlmMessage } from '../../llm/index.ts';
import { excerptFiles, ROLE_PROMPT_BUDGETS, renderExcerpts, tailWithinBudget } from '../../llm/index.ts';
import type { BuildPlan, ErrorRecord, PortState } from '../state/PortState.ts';
import { SANDBOX_DEST, SANDBOX_SRC } from '../steps/planFromAnalysis.ts';
import { buildFileSources } from './buildFileSources.ts';
import { scriptedSummary, topFindings } from './scriptedSummary.ts';

export const SCOUT_SCHEMA_NAME = 'build_plan';
export const SCOUT_MAX_TOKENS = 3_000;
export const PLAN_PHASE_NAMES = ['prepare', 'bootstrap', 'configure', 'build', 'test', 'install'] as const;

/** Shares of the scout's excerpt budget: build files, the last error, few-shot examples. */
export const SCOUT_BUDGET_SHARES = { files: 0.6, error: 0.2, fewShot: 0.2 } as const;

/** What the scout answers. Every field is required (strict decoding); env is a list for the same reason. */
export const BuildPlanAnswerSchema = z.strictObject({
  build_system: z.string().describe('the build system the plan uses (autotools, cmake, meson, make, …)'),
  dir: z.string().describe('the folder the commands run in, relative to the source root; "." for the root'),
  packages: z.array(z.string()).describe('every Debian package to install before the build'),
  env: z
    .array(z.strictObject({ name: z.string(), value: z.string() }))
    .describe('environment variables of every command (CFLAGS, …)'),
  phases: z
    .array(z.strictObject({ name: z.enum(PLAN_PHASE_NAMES), commands: z.array(z.string()) }))
    .describe('the phases in order, each a list of shell commands'),
  expected_artifacts: z
    .array(z.string())
    .describe('main outputs, relative to the source root or as DESTDIR/usr/…'),
  notes: z.string().describe('one or two sentences: why this plan'),
});
export type BuildPlanAnswer = z.infer<typeof BuildPlanAnswerSchema>;

export const SCOUT_SYSTEM = [
  'You write the build plan of a source package for riscv64 Linux. The plan runs in a riscv64',
  'Debian sandbox (native riscv64 gcc, binutils, make, pkg-config, autotools, cmake; anything else',
  'from the package list). Answer with JSON only, matching the schema you were given.',
  '',
  'How the sandbox runs a plan (these conventions are checked; a plan that breaks them is refused):',
  `- The source tree is at ${SANDBOX_SRC} ($RVPORT_SRC). Every command runs with /bin/sh in`,
  `  ${SANDBOX_SRC}/<dir>, with your env and RVPORT_SRC / RVPORT_DESTDIR set.`,
  '- Phases, in this order, each optional: prepare (fix the tree, e.g. refresh config.guess),',
  '  bootstrap (autoreconf -fi, ./autogen.sh), configure, build, test, install. test and install',
  '  may fail without failing the build.',
  '- Packages are installed by the sandbox before the build: put them in "packages", never run',
  '  apt-get, sudo or su in a command. The build has no network: no git clone, curl, wget, pip or',
  '  downloads; cargo and go must work offline (--offline, GOFLAGS=-mod=vendor or GOTOOLCHAIN=local).',
  `- Install with prefix /usr into DESTDIR only: make DESTDIR="$RVPORT_DESTDIR" install,`,
  `  DESTDIR="$RVPORT_DESTDIR" cmake --install build, DESTDIR="$RVPORT_DESTDIR" meson install -C build.`,
  `  Every install-phase command must name $RVPORT_DESTDIR (${SANDBOX_DEST}); never install into /.`,
  '- Build outputs stay in the source tree (e.g. a build/ folder) or under DESTDIR.',
  '- Never use -march=native or x86/ARM-only flags; use the native compiler (no cross prefixes).',
  '- dir must be a folder that exists in the tree.',
  '- Prefer the standard commands of the build system; change only what the evidence asks for.',
].join('\n');

export interface ScoutPromptInput {
  state: PortState;
  /** The plan tried before (a re-plan), or the standard plan to improve on. */
  previousPlan: BuildPlan | null;
  /** The error that sent the port back to the scout, when re-planning. */
  lastError: ErrorRecord | null;
  /** Rendered few-shot examples (already within their share of the budget). */
  fewShot: string;
}

/** The scout's request: analysis, findings, excerpts, previous plan, last error, examples, within the scout budget. */
export function scoutPrompt(input: ScoutPromptInput): { system: string; messages: LlmMessage[] } {
  const { state, previousPlan, lastError, fewShot } = input;
  const budget = ROLE_PROMPT_BUDGETS.scout;
  const excerpts = excerptFiles(buildFileSources(state), Math.floor(budget * SCOUT_BUDGET_SHARES.files));
  const analysis = state.packageAnalysis;
  const sections = [
    `Package: ${state.source.name} (source: ${state.source.spec})`,
    '',
    '## Analysis',
    analysis
      ? [
          `build system ${analysis.buildSystem} in ${analysis.dir} (confidence ${analysis.confidence.toFixed(2)}, ${analysis.llmGrounded ? 'LLM-grounded' : 'scripted'})`,
          `needs a custom plan: ${analysis.needsCustomPlan ? 'yes' : 'no'}`,
          `Debian dependencies: ${analysis.dependencies.join(' ') || 'none found'}`,
          ...analysis.notes.map((n) => `note: ${n}`),
        ].join('\n')
      : 'No package analysis.',
    '',
    scriptedSummary(state),
    '',
    '## Architecture findings',
    topFindings(state.findings),
    '',
    '## Build files and docs (excerpts)',
    excerpts.excerpts.length ? renderExcerpts(excerpts) : 'No build file could be read.',
    '',
    previousPlan ? '## The previous plan' : '## Previous plan',
    previousPlan ? describePlan(previousPlan) : 'None: there is no standard plan for this build system.',
  ];
  if (lastError) {
    sections.push(
      '',
      `## The error that asks for a new plan (${lastError.category}${lastError.phase ? `, phase ${lastError.phase}` : ''})`,
      ...(lastError.command ? [`command: ${lastError.command}`] : []),
      tailWithinBudget(lastError.message, Math.floor(budget * SCOUT_BUDGET_SHARES.error)),
      '',
      'Write a plan that avoids this error (a different package name, a bootstrap step, another folder, …).',
    );
  }
  if (fewShot) sections.push('', '## Verified ports of similar packages (for reference)', fewShot);
  return { system: SCOUT_SYSTEM, messages: [{ role: 'user', content: sections.join('\n') }] };
}

function describePlan(plan: BuildPlan): string {
  return [
    `${plan.buildSystem} in ${plan.dir} (${plan.origin})`,
    `packages: ${plan.packages.join(' ') || 'none'}`,
    ...(plan.env && Object.keys(plan.env).length
      ? [
          `env: ${Object.entries(plan.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`,
        ]
      : []),
    ...plan.phases.map((p) => `${p.name}: ${p.commands.join(' && ')}`),
  ].join('\n');
}
