import { SourceError } from '../SourceError.ts';

/**
 * A module path or version as go.sum may name it: what Go's module.CheckPath admits, roughly
 * (letters, digits, `-._~/+`, no empty, `.` or `..` element, no leading dot or slash). It
 * becomes a URL path and a folder of the store, so anything else is refused.
 */
const PATH = /^[A-Za-z0-9][A-Za-z0-9._~+-]*(\/[A-Za-z0-9._~+-]+)*$/;
const VERSION = /^v[0-9A-Za-z.+-]+$/;

/**
 * The module proxy protocol's case encoding (golang.org/x/mod/module EscapePath): an upper-case
 * letter becomes `!` and its lower-case form, so paths differing in case stay apart on
 * case-insensitive file systems. The same encoding names the folders of GOMODCACHE's
 * cache/download, which the file:// proxy in the sandbox reads.
 */
export function escapeModulePath(path: string): string {
  if (!PATH.test(path) || path.split('/').some((p) => p === '.' || p === '..' || p.startsWith('.')))
    throw new SourceError('invalid', `not a Go module path: ${JSON.stringify(path)}`);
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** A version, escaped the same way (versions may carry upper case in pre-release parts). */
export function escapeModuleVersion(version: string): string {
  if (!VERSION.test(version) || version.includes('..'))
    throw new SourceError('invalid', `not a Go module version: ${JSON.stringify(version)}`);
  return version.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}
