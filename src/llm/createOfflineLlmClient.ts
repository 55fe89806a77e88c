import type { LlmClient, LlmRequest, LlmResult } from './LlmClient.ts';
import { toLlmRole } from './llmRoles.ts';
import { ZERO_USAGE } from './tokenUsage.ts';

/**
 * The client when no provider is configured (or `--offline`): every call answers "no LLM" at
 * once, so each node takes its deterministic fallback (SPEC 1.2). Never a crash, never a request.
 */
export function createOfflineLlmClient(reason: string, costCapUsd = 0): LlmClient {
  return {
    provider: null,
    offline: true,
    offlineReason: reason,
    costCapUsd,
    modelFor: () => null,
    async complete<T>(request: LlmRequest<T>): Promise<LlmResult<T>> {
      return {
        outcome: 'offline',
        ok: false,
        text: '',
        usage: { ...ZERO_USAGE },
        costUsd: 0,
        durationMs: 0,
        role: toLlmRole(request.role),
        provider: null,
        model: null,
        exchanges: 0,
        repairTurns: 0,
        error: { message: `no LLM: ${reason}` },
      };
    },
    totals: () => ({ exchanges: 0, usage: { ...ZERO_USAGE }, costUsd: 0 }),
    costCapReached: () => false,
  };
}
