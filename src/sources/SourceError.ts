/** A SOURCE that cannot be used: bad syntax, missing path, failed download, unsafe archive. */
export class SourceError extends Error {
  override name = 'SourceError';
  constructor(
    message: string,
    /** `invalid`: refused before anything ran; `acquire`: fetching or unpacking failed. */
    readonly code: 'invalid' | 'acquire' = 'invalid',
  ) {
    super(message);
  }
}

/** Checks by name so two copies of the package still agree. */
export function isSourceError(error: unknown): error is SourceError {
  return error instanceof Error && error.name === 'SourceError';
}
