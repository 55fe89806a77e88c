import type { LlmResult } from '../../llm/index.ts';
import type { LlmUsageTotals } from '../state/PortState.ts';

/** The port's LLM totals after one more call (every exchange of it, repair turns included). */
export function withLlmUsage(totals: LlmUsageTotals, result: LlmResult): LlmUsageTotals {
  return {
    calls: totals.calls + result.exchanges,
    inputTokens: totals.inputTokens + result.usage.inputTokens,
    outputTokens: totals.outputTokens + result.usage.outputTokens,
    cacheReadTokens: (totals.cacheReadTokens ?? 0) + result.usage.cacheReadTokens,
    cacheWriteTokens: (totals.cacheWriteTokens ?? 0) + result.usage.cacheWriteTokens,
    costUsd: totals.costUsd + result.costUsd,
  };
}

/** How an LLM call that did not answer reads in the audit trail. */
export function llmFallbackNote(result: LlmResult): string {
  if (result.outcome === 'offline') return 'no LLM (offline)';
  const why = result.error?.message ? `: ${result.error.message.split('\n')[0]}` : '';
  return `LLM ${result.outcome}${why}; deterministic fallback`;
}

/** The escalation reason when the cost cap stopped a call. */
export function costCapReason(totals: LlmUsageTotals, capUsd: number): string {
  return `LLM cost $${totals.costUsd.toFixed(2)} reached the cap of $${capUsd.toFixed(2)}`;
}
