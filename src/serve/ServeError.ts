/** Why a request cannot be answered; `status` is the HTTP status the server answers with. */
export type ServeErrorCode = 'bad-request' | 'not-found' | 'too-large' | 'method-not-allowed' | 'bad-host';

const STATUS: Record<ServeErrorCode, number> = {
  'bad-request': 400,
  'not-found': 404,
  'too-large': 413,
  'method-not-allowed': 405,
  'bad-host': 421,
};

export class ServeError extends Error {
  override name = 'ServeError';
  constructor(
    readonly code: ServeErrorCode,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.code];
  }
}

/** Checks by name so two copies of the module still agree. */
export function isServeError(error: unknown): error is ServeError {
  return error instanceof Error && error.name === 'ServeError' && 'code' in error;
}
