import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';

/**
 * `invalid`: refused before anything ran; `acquire`: fetching or unpacking failed;
 * `unsafe-entry`: an archive or tree holds something that may not reach the host (a device, a
 * link leading out, a path outside the target); `archive-too-large` / `archive-too-many-files`:
 * a tarball over the unpacking limits; `hash-mismatch`: a downloaded dependency (Go module, crate)
 * is not what the lock file or go.sum says it is; `private-address`: a fetch would reach a loopback,
 * private, link-local or reserved address (allowed with `--allow-private-addresses`);
 * `untrusted-origin`: a SOURCE from a queue job, a resumed or replayed state or a cache entry
 * asks for what only a SOURCE on the command line may (ssh with the host user's keys).
 */
export type SourceErrorCode =
  | 'invalid'
  | 'acquire'
  | 'unsafe-entry'
  | 'archive-too-large'
  | 'archive-too-many-files'
  | 'hash-mismatch'
  | 'private-address'
  | 'untrusted-origin';

/** A SOURCE that cannot be used: bad syntax, missing path, failed download, unsafe archive. */
export class SourceError extends RvportError {
  override name = 'SourceError';
  declare readonly code: SourceErrorCode;
  constructor(code: SourceErrorCode, message: string, options?: RvportErrorOptions) {
    super(code, message, options);
  }
}

export function isSourceError(error: unknown): error is SourceError {
  return isRvportErrorNamed(error, ['SourceError']);
}
