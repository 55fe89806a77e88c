import { z } from 'zod';
import type { LlmMessage } from '../../llm/index.ts';
import { estimateTokens, excerptFiles, ROLE_PROMPT_BUDGETS, renderExcerpts } from '../../llm/index.ts';
import { withScriptVariables } from '../outputs/BuildScript.ts';
import { successfulSteps } from '../outputs/renderRecipe.ts';
import type { PortState } from '../state/PortState.ts';
import { topFindings } from './scriptedSummary.ts';

export const SUMMARIZER_SCHEMA_NAME = 'recipe';
export const SUMMARIZER_MAX_TOKENS = 3_000;
/** Shares of the summarizer's budget: the deterministic recipe, the patches. */
export const SUMMARIZER_BUDGET_SHARES = { recipe: 0.5, patches: 0.3 } as const;
/** Fix attempts and findings shown at most. */
const MAX_FIXES = 10;
const MAX_FINDINGS = 8;

export const RecipeAnswerSchema = z.strictObject({
  recipe_markdown: z.string().describe('the whole recipe.md, in Markdown'),
});
export type RecipeAnswer = z.infer<typeof RecipeAnswerSchema>;

export const SUMMARIZER_SYSTEM = [
  'You write recipe.md: how a person builds this package for riscv64 Linux (Debian) by hand.',
  'You get the deterministic recipe rvport wrote from the commands that worked, the patches, the',
  'fixes tried, the architecture findings, the verification and the test results. Write a short,',
  'well-organised Markdown recipe (title, what it is, prerequisites, build steps per phase,',
  'patches, riscv64 notes, how it was verified, test results). Answer with JSON only:',
  '{"recipe_markdown": "…"}.',
  '',
  'Rules (checked; a recipe that breaks them is thrown away):',
  '- Every line listed under "Must appear verbatim" appears in your recipe exactly as given, one',
  '  per line; the commands inside ```sh code blocks, in the given order.',
  '- Do not add commands, packages, flags or results that the input does not contain. Code blocks',
  '  hold only the given commands (and `git apply patches/NAME` for the patches listed).',
  '- Keep it short: explain what matters for riscv64 (patches, fixes, findings) in a few sentences.',
].join('\n');

/** The summarizer's request, within the summarizer budget. */
export function summarizerPrompt(
  state: PortState,
  deterministicRecipe: string,
  required: readonly string[],
): { system: string; messages: LlmMessage[] } {
  const budget = ROLE_PROMPT_BUDGETS.summarizer;
  const patches = excerptFiles(
    state.patches.map((p) => ({ path: `patches/${p.name}`, content: p.diff, focus: [/^[+-][^+-]/] })),
    Math.floor(budget * SUMMARIZER_BUDGET_SHARES.patches),
  );
  const steps = successfulSteps(state.executed);
  const fixes = state.fixAttempts
    .slice(-MAX_FIXES)
    .map((f) => `- attempt ${f.attempt}, ${f.source} ${f.name} (${f.outcome}): ${f.description}`);
  const tests = state.tests
    ? state.tests.ran
      ? `${state.tests.passed} passed, ${state.tests.failed} failed (exit ${state.tests.exitCode})`
      : `not run (${state.tests.summary})`
    : 'not run';
  const smoke = state.smokeTests.map((t) => `- ${t.command}: exit ${t.exitCode}`);
  const content = [
    `Package: ${state.source.name} (source: ${state.source.spec})`,
    '',
    '## Must appear verbatim (each line exactly as in this block)',
    '```sh',
    ...required,
    '```',
    '',
    '## Commands that worked, by phase',
    // with build.sh's variables, as the recipe must say them
    ...steps.map((c) => `- [${c.phase}] ${withScriptVariables(c.command)}`),
    '',
    '## Deterministic recipe',
    headWithinBudget(deterministicRecipe, Math.floor(budget * SUMMARIZER_BUDGET_SHARES.recipe)),
    '',
    '## Patches',
    patches.excerpts.length ? renderExcerpts(patches) : 'None.',
    '',
    '## Fixes tried',
    ...(fixes.length ? fixes : ['None.']),
    '',
    '## Architecture findings',
    topFindings(state.findings, MAX_FINDINGS),
    '',
    '## Verification and tests',
    `verdict: ${state.verification?.verdict ?? 'not_verified'} (${state.verification?.reason ?? 'no verdict'})`,
    `package tests: ${tests}`,
    ...(smoke.length ? ['smoke runs:', ...smoke] : []),
    ...(state.hazardWarnings.length
      ? ['compiler warnings that point at riscv64 hazards:', ...state.hazardWarnings.slice(0, 5)]
      : []),
  ].join('\n');
  return { system: SUMMARIZER_SYSTEM, messages: [{ role: 'user', content }] };
}

function headWithinBudget(text: string, budgetTokens: number): string {
  if (estimateTokens(text) <= budgetTokens) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  for (const line of lines) {
    if (estimateTokens([...kept, line].join('\n')) > budgetTokens - 8) break;
    kept.push(line);
  }
  return `${kept.join('\n')}\n… (${lines.length - kept.length} more lines)`;
}
