export type ReplayErrorCode =
  | 'NO_STATE'
  | 'BAD_STATE'
  | 'NOT_BUILT'
  | 'NO_SCRIPT'
  | 'BAD_PACKAGES'
  | 'BAD_MODE';

/** A folder `rvport replay` cannot replay: bad input, said in one line (exit 1). */
export class ReplayError extends Error {
  override readonly name = 'ReplayError';
  constructor(
    message: string,
    readonly code: ReplayErrorCode,
  ) {
    super(message);
  }
}

export function isReplayError(error: unknown): error is ReplayError {
  return error instanceof ReplayError;
}
