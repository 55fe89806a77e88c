import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../../errors/index.ts';

export type ReplayErrorCode =
  | 'no-state'
  | 'bad-state'
  | 'not-built'
  | 'no-script'
  | 'bad-packages'
  | 'bad-mode';

/**
 * The codes as replayPort.ts still spells them at its call sites, with the message first: it is
 * left so while src/port/ is being reorganised, and moves to `(code, message)` after.
 */
type LegacyReplayErrorCode =
  | 'NO_STATE'
  | 'BAD_STATE'
  | 'NOT_BUILT'
  | 'NO_SCRIPT'
  | 'BAD_PACKAGES'
  | 'BAD_MODE';

/** A folder `rvport replay` cannot replay: bad input, said in one line (exit 1). */
export class ReplayError extends RvportError {
  override readonly name = 'ReplayError';
  declare readonly code: ReplayErrorCode;
  constructor(code: ReplayErrorCode, message: string, options?: RvportErrorOptions);
  /** @deprecated the older order, for replayPort.ts until it moves: `(code, message)`. */
  constructor(message: string, code: LegacyReplayErrorCode);
  constructor(first: string, second: string, options?: RvportErrorOptions) {
    const legacy = /^[A-Z_]+$/.test(second);
    super(legacy ? second.toLowerCase().replaceAll('_', '-') : first, legacy ? first : second, options);
  }
}

export function isReplayError(error: unknown): error is ReplayError {
  return isRvportErrorNamed(error, ['ReplayError']);
}
