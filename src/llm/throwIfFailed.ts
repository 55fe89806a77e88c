import { CostCapReachedError, LlmError, type LlmErrorCode } from './errors.ts';
import type { LlmClient, LlmOutcome, LlmResult } from './LlmClient.ts';

const CODE_BY_OUTCOME: Record<Exclude<LlmOutcome, 'ok' | 'cost_cap'>, LlmErrorCode> = {
  offline: 'offline',
  invalid: 'invalid-reply',
  rate_limited: 'rate-limited',
  timeout: 'timeout',
  aborted: 'aborted',
  error: 'provider-error',
};

/** For callers that prefer exceptions (an engine node whose retry policy reacts to them). */
export function throwIfFailed<T>(
  result: LlmResult<T>,
  client?: Pick<LlmClient, 'totals' | 'costCapUsd'>,
): LlmResult<T> {
  if (result.outcome === 'ok') return result;
  if (result.outcome === 'cost_cap') {
    throw new CostCapReachedError(client?.totals().costUsd ?? result.costUsd, client?.costCapUsd ?? 0);
  }
  throw new LlmError(
    CODE_BY_OUTCOME[result.outcome],
    result.error?.message ?? `LLM call ended: ${result.outcome}`,
  );
}
