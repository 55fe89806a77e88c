import { z } from 'zod';
import {
  type ExcerptSource,
  excerptFiles,
  MAX_INSPECTION_COMMANDS,
  ROLE_PROMPT_BUDGETS,
  renderExcerpts,
  tailWithinBudget,
} from '../../llm/index.ts';
import type { ErrorRecord, PortState } from '../state/PortState.ts';

/** The fixer's first answer: the read-only commands it wants to see the output of (may be none). */
export const inspectionAnswerSchema = z.strictObject({
  reasoning: z.string().describe('what you need to know before proposing a fix'),
  commands: z
    .array(z.string())
    .describe(`at most ${MAX_INSPECTION_COMMANDS} read-only shell commands; [] when the excerpts suffice`),
});
export type InspectionAnswer = z.infer<typeof inspectionAnswerSchema>;

/** The fix: a diff and/or commands, packages and environment, with what it is meant to repair. */
export const fixAnswerSchema = z.strictObject({
  diagnosis: z.string().min(1).describe('the cause of the failure, in two or three sentences'),
  summary: z.string().min(1).max(120).describe('one line naming the change, e.g. "rename strnlen"'),
  patch: z
    .string()
    .describe(
      'a unified diff against the original source tree (paths from the source root with a/ and b/ prefixes, three lines of context), or ""',
    ),
  commands: z
    .array(z.string())
    .describe(
      'shell commands run in the build folder before every build (e.g. sed on a generated file); [] for none',
    ),
  packages: z.array(z.string()).describe('Debian trixie riscv64 packages to install; [] for none'),
  env: z
    .array(z.strictObject({ name: z.string(), value: z.string() }))
    .describe('environment variables for every build command (e.g. CFLAGS); [] for none'),
});
export type FixAnswer = z.infer<typeof fixAnswerSchema>;

const CONTEXT = `rvport ports source packages to riscv64 Linux: Debian 13 (trixie) riscv64 with GCC 14, binutils, glibc 2.41, in a sandbox with no network. The source is at /build/src (a fresh copy before every build); a build runs the plan's phases in order. Plain char is unsigned on riscv64; long double is 128-bit; there is no x86 assembly, no SSE/AVX, no cpuid.`;

export const INSPECTION_SYSTEM = `${CONTEXT}

You are the fixer. A build command failed and the deterministic repairs could not fix it. Before you propose a fix you may ask for ONE round of at most ${MAX_INSPECTION_COMMANDS} read-only commands, run in the build folder inside the sandbox (for example cat, sed -n 'A,Bp' FILE, grep -rn PATTERN, head, tail, ls, find, readelf -h, objdump -d, nm, file). Commands that write, install, download or leave the sandbox are refused. Ask only for what the excerpts below do not show; answer with an empty list when they suffice.`;

export const FIX_SYSTEM = `${CONTEXT}

You are the fixer. Propose exactly one fix for the failure below: the smallest change that makes the code correct on riscv64 Linux without breaking other architectures.
- patch: a unified diff against the ORIGINAL source tree (as released, before any build), paths from the source root with a/ and b/ prefixes and three lines of context. Earlier accepted patches are already applied to that tree. Use "" for no patch.
- commands: shell commands run in the build folder before every build; only for edits a patch cannot express. No network, no sudo, nothing outside /build.
- packages: Debian trixie packages to install, only when a header, library or tool is missing.
- env: environment variables for every build command, e.g. CFLAGS or LDFLAGS.
Never make the build target another architecture, never remove the package's functionality, never hide failures (no "|| true", no deleting tests or checks). If an earlier fix was rolled back or did not help, do something different.`;

/** Tokens of each part of a fixer prompt (the role's budget shared out). */
const BUDGET = ROLE_PROMPT_BUDGETS.fixer;
const OUTPUT_SHARE = 0.3;
const FILES_SHARE = 0.45;
const INSPECTION_SHARE = 0.2;
const FEWSHOT_SHARE = 0.1;

export interface FixerFacts {
  state: PortState;
  error: ErrorRecord;
  /** The failed command's own output (from the build log). */
  output: string;
  /** Source files the diagnostics name, with their focus lines. */
  files: readonly ExcerptSource[];
  /** Examples of verified ports, rendered (may be ''). */
  fewShot?: string;
}

/** The part of both fixer prompts that describes the failure. */
export function describeFailure(facts: FixerFacts): string {
  const { state, error } = facts;
  const plan = state.plan;
  const out: string[] = [];
  out.push(`Package: ${state.source.name}`);
  if (plan) {
    out.push(`Build system: ${plan.buildSystem}; build folder: ${plan.dir} (relative to the source root)`);
    out.push('Plan:');
    for (const phase of plan.phases) out.push(`  ${phase.name}: ${phase.commands.join(' && ') || '(none)'}`);
    if (plan.packages.length) out.push(`  packages: ${plan.packages.join(' ')}`);
    if (plan.env && Object.keys(plan.env).length)
      out.push(
        `  env: ${Object.entries(plan.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`,
      );
  }
  out.push('');
  out.push(
    `Failure: ${error.category} (${error.severity})${error.phase ? ` in the ${error.phase} phase` : ''}${error.command ? `, command \`${error.command}\`` : ''}${error.exitCode !== undefined ? `, exit ${error.exitCode}` : ''}`,
  );
  if (error.evidence) out.push(`Deciding line: ${error.evidence}`);
  out.push('');
  out.push('Output of the failed command (its end):');
  out.push('```');
  out.push(tailWithinBudget(facts.output || error.message, Math.floor(BUDGET * OUTPUT_SHARE)));
  out.push('```');
  if (facts.files.length) {
    out.push('');
    out.push('Source files the diagnostics name (excerpts):');
    out.push(renderExcerpts(excerptFiles(facts.files, Math.floor(BUDGET * FILES_SHARE))));
  }
  const earlier = state.fixAttempts.filter((f) => f.source === 'llm' || f.outcome !== 'applied');
  const repairs = state.fixAttempts.filter((f) => f.source === 'heuristic' && f.outcome === 'applied');
  if (repairs.length) {
    out.push('');
    out.push(`Repairs rvport already made: ${repairs.map((r) => r.description).join('; ')}`);
  }
  if (earlier.length) {
    out.push('');
    out.push('Earlier fix attempts:');
    for (const f of earlier.slice(-5)) out.push(`- [${f.outcome}] ${f.name}: ${f.description}`);
  }
  if (state.patches.length) {
    out.push('');
    out.push(`Patches already applied to the source: ${state.patches.map((p) => p.name).join(', ')}`);
  }
  const findings = state.findings.filter((f) => f.severity === 'high').slice(0, 5);
  if (findings.length) {
    out.push('');
    out.push('Architecture findings of the scripted scan:');
    for (const f of findings)
      out.push(
        `- ${f.file}${f.line ? `:${f.line}` : ''} ${f.kind}: ${f.message} (${f.snippet.slice(0, 120)})`,
      );
  }
  if (facts.fewShot) {
    out.push('');
    out.push('Verified ports of other packages, for reference:');
    out.push(tailWithinBudget(facts.fewShot, Math.floor(BUDGET * FEWSHOT_SHARE)));
  }
  return out.join('\n');
}

/** The inspection outputs, each clipped, for the fix prompt. */
export function describeInspection(
  results: readonly { command: string; exitCode: number; output: string }[],
) {
  if (results.length === 0) return '';
  const each = Math.floor((BUDGET * INSPECTION_SHARE) / results.length);
  const parts = results.map(
    (r) => `$ ${r.command}   (exit ${r.exitCode})\n${tailWithinBudget(r.output, each) || '(no output)'}`,
  );
  return `Output of the read-only commands you asked for:\n\`\`\`\n${parts.join('\n\n')}\n\`\`\``;
}
