import { z } from 'zod';
import type { LlmMessage } from '../../llm/index.ts';
import { excerptFiles, ROLE_PROMPT_BUDGETS, renderExcerpts } from '../../llm/index.ts';
import type { PortState } from '../state/PortState.ts';
import { buildFileSources } from './buildFileSources.ts';
import { scriptedSummary, topFindings } from './scriptedSummary.ts';

export const ANALYST_SCHEMA_NAME = 'package_analysis';
/** The analysis is short: a few sentences and lists. */
export const ANALYST_MAX_TOKENS = 2_000;

/** What the analyst (planner role) answers. Every field is required so strict decoding works. */
export const PackageAnalysisAnswerSchema = z.strictObject({
  purpose: z.string().describe('one or two sentences: what the package is'),
  build_system: z
    .string()
    .describe(
      'one of autotools, configure, cmake, meson, make, go, cargo, scons, waf, python, perl, php, r, imake, qmake, unknown',
    ),
  dir: z.string().describe('the folder of the build, relative to the source root; "." for the root'),
  dependencies: z.array(z.string()).describe('Debian package names (riscv64) the build needs'),
  riscv64_risks: z.array(z.string()).describe('what may break on riscv64, each one short'),
  expected_artifacts: z.array(z.string()).describe('the main programs and libraries the build makes'),
  needs_custom_plan: z
    .boolean()
    .describe('true when the standard recipe of the build system will not work for this package'),
  confidence: z.number().min(0).max(1).describe('how sure you are of build_system and dir, 0..1'),
});
export type PackageAnalysisAnswer = z.infer<typeof PackageAnalysisAnswerSchema>;

export const ANALYST_SYSTEM = [
  'You analyse a source package that is about to be built for riscv64 Linux (Debian, native',
  'riscv64 userland). You get excerpts of its real build files and docs and the result of a',
  'scripted analysis. Answer with JSON only, matching the schema you were given.',
  '',
  'Rules:',
  '- build_system is one of: autotools, configure (a hand-written configure script), cmake, meson,',
  '  make, go, cargo, scons, waf, python, perl, php, r, imake, qmake, unknown. Prefer the scripted detection unless the files',
  '  clearly show it is wrong.',
  '- dir is a folder that exists in the tree, relative to the root ("." for the root).',
  '- dependencies are Debian package names (e.g. zlib1g-dev, libssl-dev, pkgconf), not upstream names.',
  '- needs_custom_plan is true only when the standard commands of that build system (shown as the',
  '  default plan) would not build this package.',
  '- Do not invent files or facts that the excerpts do not support; say less when unsure.',
].join('\n');

/** The analyst's request: scripted analysis, top findings and build-file excerpts within the planner budget. */
export function analystPrompt(state: PortState): { system: string; messages: LlmMessage[] } {
  const excerpts = excerptFiles(buildFileSources(state), ROLE_PROMPT_BUDGETS.planner);
  const content = [
    `Package: ${state.source.name} (source: ${state.source.spec})`,
    '',
    '## Scripted analysis',
    scriptedSummary(state),
    '',
    '## Architecture findings (scripted scan)',
    topFindings(state.findings),
    '',
    '## Build files and docs (excerpts)',
    excerpts.excerpts.length ? renderExcerpts(excerpts) : 'No build file could be read.',
  ].join('\n');
  return { system: ANALYST_SYSTEM, messages: [{ role: 'user', content }] };
}
