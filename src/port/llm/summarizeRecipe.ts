import type { LlmClient } from '../../llm/index.ts';
import type { LlmUsageTotals, PortState } from '../state/PortState.ts';
import { codeBlockLines, inventedRecipeCommands } from './inventedRecipeCommands.ts';
import { llmFallbackNote, withLlmUsage } from './llmUsage.ts';
import { missingRecipeLines, requiredRecipeLines } from './requiredRecipeLines.ts';
import {
  RecipeAnswerSchema,
  SUMMARIZER_MAX_TOKENS,
  SUMMARIZER_SCHEMA_NAME,
  summarizerPrompt,
} from './summarizerPrompt.ts';

/** An LLM recipe longer than this is not a short recipe; the deterministic one is kept. */
export const MAX_RECIPE_CHARS = 40_000;

export interface SummarizedRecipe {
  recipe: string;
  /** The port's LLM totals after the call (unchanged when offline). */
  llm: LlmUsageTotals;
  /** What happened, for the audit; null when offline (no LLM layer, nothing to say). */
  note: string | null;
}

/**
 * The recipe of a finished port: the summarizer's (role summarizer) when it keeps every required
 * line verbatim and its code blocks hold no command the port did not run, else the deterministic
 * recipe. Never fails the port.
 */
export async function summarizeRecipe(
  state: PortState,
  deterministicRecipe: string,
  llm: LlmClient,
): Promise<SummarizedRecipe> {
  if (llm.offline) return { recipe: deterministicRecipe, llm: state.llm, note: null };
  const required = requiredRecipeLines(state);
  const result = await llm.complete({
    role: 'summarizer',
    ...summarizerPrompt(state, deterministicRecipe, required),
    schema: RecipeAnswerSchema,
    schemaName: SUMMARIZER_SCHEMA_NAME,
    maxTokens: SUMMARIZER_MAX_TOKENS,
  });
  const totals = withLlmUsage(state.llm, result);
  if (!result.ok || !result.value)
    return {
      recipe: deterministicRecipe,
      llm: totals,
      note: `deterministic recipe (${llmFallbackNote(result)})`,
    };
  const text = `${result.value.recipe_markdown.trim()}\n`;
  if (text.length > MAX_RECIPE_CHARS)
    return {
      recipe: deterministicRecipe,
      llm: totals,
      note: 'deterministic recipe (the LLM recipe is too long)',
    };
  const deterministic = (why: string) => ({
    recipe: deterministicRecipe,
    llm: totals,
    note: `deterministic recipe (the LLM recipe ${why})`,
  });
  const missing = missingRecipeLines(text, required);
  if (missing.length > 0)
    return deterministic(`leaves out ${count(missing, 'required line')}: ${firstLines(missing)}`);
  const invented = inventedRecipeCommands(text, [
    ...codeBlockLines(deterministicRecipe),
    // what the deterministic recipe says in prose: apply the patches, work in the build folder
    ...state.patches.flatMap((p) => [`git apply patches/${p.name}`, `patch -p1 -i patches/${p.name}`]),
    'sh build.sh SOURCE_DIR',
    ...(state.plan?.dir && state.plan.dir !== '.' ? [`cd ${state.plan.dir}`] : []),
  ]);
  if (invented.length > 0)
    return deterministic(`adds ${count(invented, 'command')} the port never ran: ${firstLines(invented)}`);
  return { recipe: text, llm: totals, note: 'LLM recipe (every command kept verbatim, none added)' };
}

const count = (items: readonly string[], noun: string) =>
  `${items.length} ${noun}${items.length === 1 ? '' : 's'}`;

const firstLines = (lines: readonly string[]) =>
  lines
    .slice(0, 3)
    .map((line) => JSON.stringify(line))
    .join(', ');
