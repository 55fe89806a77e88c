import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';

/** Why a request cannot be answered; `status` is the HTTP status the server answers with. */
export type ServeErrorCode = 'bad-request' | 'not-found' | 'too-large' | 'method-not-allowed' | 'bad-host';

const STATUS: Record<ServeErrorCode, number> = {
  'bad-request': 400,
  'not-found': 404,
  'too-large': 413,
  'method-not-allowed': 405,
  'bad-host': 421,
};

export class ServeError extends RvportError {
  override name = 'ServeError';
  declare readonly code: ServeErrorCode;
  constructor(code: ServeErrorCode, message: string, options?: RvportErrorOptions) {
    super(code, message, options);
  }

  get status(): number {
    return STATUS[this.code];
  }
}

export function isServeError(error: unknown): error is ServeError {
  return isRvportErrorNamed(error, ['ServeError']);
}
