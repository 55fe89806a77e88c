import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';

/**
 * The LLM layer reports failures as data (`LlmCallResult.outcome`); these errors are for the
 * places that need an exception: bad configuration, and callers that prefer `throwIfFailed`.
 */
export type LlmErrorCode =
  | 'config-invalid'
  | 'cost-cap-reached'
  | 'offline'
  | 'invalid-reply'
  | 'rate-limited'
  | 'timeout'
  | 'aborted'
  | 'provider-error';

export class LlmError extends RvportError {
  override name = 'LlmError';
  declare readonly code: LlmErrorCode;

  constructor(code: LlmErrorCode, message: string, options?: RvportErrorOptions) {
    super(code, message, options);
  }
}

/** The port workflow turns this into an escalation (SPEC 4: "LLM cost passes the cap"). */
export class CostCapReachedError extends LlmError {
  override name = 'CostCapReachedError';
  readonly totalUsd: number;
  readonly capUsd: number;

  constructor(totalUsd: number, capUsd: number) {
    super('cost-cap-reached', `LLM cost cap reached: $${totalUsd.toFixed(4)} of $${capUsd.toFixed(2)}`);
    this.totalUsd = totalUsd;
    this.capUsd = capUsd;
  }
}

export function isLlmError(error: unknown): error is LlmError {
  return isRvportErrorNamed(error, ['LlmError', 'CostCapReachedError']);
}
