import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../../errors/index.ts';

export type ReplayErrorCode =
  | 'no-state'
  | 'bad-state'
  | 'not-built'
  | 'no-script'
  | 'bad-packages'
  | 'bad-mode';

/** A folder `rvport replay` cannot replay: bad input, said in one line (exit 1). */
export class ReplayError extends RvportError {
  override readonly name = 'ReplayError';
  declare readonly code: ReplayErrorCode;
  constructor(code: ReplayErrorCode, message: string, options?: RvportErrorOptions) {
    super(code, message, options);
  }
}

export function isReplayError(error: unknown): error is ReplayError {
  return isRvportErrorNamed(error, ['ReplayError']);
}
