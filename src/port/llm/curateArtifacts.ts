import type { LlmClient } from '../../llm/index.ts';
import type { ArtifactRecord, LlmUsageTotals, PortState } from '../state/PortState.ts';
import { checkArtifactRanking } from './checkArtifactRanking.ts';
import {
  ArtifactRankingAnswerSchema,
  artifactsForCurator,
  CURATOR_MAX_TOKENS,
  CURATOR_SCHEMA_NAME,
  curatorPrompt,
} from './curatorPrompt.ts';
import { llmFallbackNote, withLlmUsage } from './llmUsage.ts';

export interface CuratedArtifacts {
  artifacts: ArtifactRecord[];
  llm: LlmUsageTotals;
  /** For the audit; null when no call was made. */
  note: string | null;
}

/**
 * The artifacts in the curator's order (role curator) when its answer passes
 * `checkArtifactRanking`; otherwise the rule ranking the verify node made. No artifacts, or
 * offline: no call.
 */
export async function curateArtifacts(state: PortState, llm: LlmClient): Promise<CuratedArtifacts> {
  const unchanged = { artifacts: state.artifacts, llm: state.llm, note: null };
  if (llm.offline || state.artifacts.length === 0) return unchanged;
  const shown = artifactsForCurator(state.artifacts);
  if (shown.length === 0) return unchanged;
  const result = await llm.complete({
    role: 'curator',
    ...curatorPrompt(state, shown),
    schema: ArtifactRankingAnswerSchema,
    schemaName: CURATOR_SCHEMA_NAME,
    maxTokens: CURATOR_MAX_TOKENS,
  });
  const totals = withLlmUsage(state.llm, result);
  if (!result.ok || !result.value)
    return { artifacts: state.artifacts, llm: totals, note: `rule ranking (${llmFallbackNote(result)})` };
  const verdict = checkArtifactRanking(state.artifacts, shown, result.value);
  if (!verdict.ok)
    return {
      artifacts: state.artifacts,
      llm: totals,
      note: `rule ranking (LLM ranking refused: ${verdict.problems.slice(0, 3).join('; ')})`,
    };
  return {
    artifacts: verdict.artifacts,
    llm: totals,
    note: `LLM ranking of ${shown.length} artifacts; main: ${verdict.artifacts[0]?.path ?? '-'}`,
  };
}
