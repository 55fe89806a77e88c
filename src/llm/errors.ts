/**
 * The LLM layer reports failures as data (`LlmCallResult.outcome`); these errors are for the
 * places that need an exception: bad configuration, and callers that prefer `throwIfFailed`.
 * Guards check `name`/`code`, not `instanceof`, so two copies of the module still agree.
 */
export type LlmErrorCode =
  | 'config_invalid'
  | 'cost_cap_reached'
  | 'offline'
  | 'invalid_reply'
  | 'rate_limited'
  | 'timeout'
  | 'aborted'
  | 'provider_error';

export class LlmError extends Error {
  override name = 'LlmError';
  readonly code: LlmErrorCode;

  constructor(code: LlmErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** The port workflow turns this into an escalation (SPEC 4: "LLM cost passes the cap"). */
export class CostCapReachedError extends LlmError {
  override name = 'CostCapReachedError';
  readonly totalUsd: number;
  readonly capUsd: number;

  constructor(totalUsd: number, capUsd: number) {
    super('cost_cap_reached', `LLM cost cap reached: $${totalUsd.toFixed(4)} of $${capUsd.toFixed(2)}`);
    this.totalUsd = totalUsd;
    this.capUsd = capUsd;
  }
}

export function isLlmError(error: unknown): error is LlmError {
  return (
    error instanceof Error &&
    (error.name === 'LlmError' || error.name === 'CostCapReachedError') &&
    typeof (error as { code?: unknown }).code === 'string'
  );
}
