import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEBIAN_PACKAGE_NAME } from '../debian/packageName.ts';
import { SourceError } from './SourceError.ts';

/** Where the code comes from (SPEC section 2), validated before anything runs. */
export type SourceSpec =
  | { kind: 'git'; raw: string; url: string; name: string }
  | { kind: 'directory'; raw: string; path: string; name: string }
  | { kind: 'tarball'; raw: string; path: string; name: string }
  | { kind: 'tarball-url'; raw: string; url: string; name: string }
  | { kind: 'debian'; raw: string; package: string; version: string | null; name: string };

/** Characters a shell would interpret; a SOURCE containing any of them is refused. */
const SHELL_METACHARACTERS = /[;&|`$<>(){}[\]*?!'"\\\n\r\t\0]/;
const TARBALL_SUFFIX = /\.(tar|tar\.gz|tgz|tar\.xz|txz|tar\.bz2|tbz2?|tar\.zst|tzst|tar\.lz|tar\.lzma)$/i;
/** Debian policy 5.6.12 (versions); names are DEBIAN_PACKAGE_NAME (5.6.1). */
const DEBIAN_VERSION = /^(\d+:)?[0-9][A-Za-z0-9.+~-]*$/;
/** `user@host:path` (scp-like git address). */
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[A-Za-z0-9._~/-]+$/;
const GIT_SCHEMES = new Set(['https:', 'http:', 'ssh:', 'git:', 'file:']);

/**
 * Validates a SOURCE string and says what it is. Throws `SourceError` (bad input) for shell
 * metacharacters, unknown schemes and paths that do not exist. Reads the file system only to
 * check that local paths exist.
 */
export function parseSource(raw: string, cwd: string = process.cwd()): SourceSpec {
  const source = raw.trim();
  if (source === '') throw new SourceError('invalid', 'empty SOURCE');
  if (SHELL_METACHARACTERS.test(source)) {
    throw new SourceError(
      'invalid',
      `SOURCE contains shell metacharacters, refusing it: ${JSON.stringify(raw)}`,
    );
  }
  if (source.startsWith('-')) throw new SourceError('invalid', `SOURCE may not start with '-': ${raw}`);

  if (source.startsWith('debian:')) return parseDebian(source);
  if (SCP_LIKE.test(source))
    return { kind: 'git', raw, url: source, name: nameFromUrlPath(source.split(':')[1] ?? '') };

  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(source)?.[1];
  if (scheme !== undefined) return parseUrl(source, raw);
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(source) && !existsSync(resolve(cwd, source))) {
    throw new SourceError(
      'invalid',
      `unknown SOURCE scheme in ${raw} (use https://, http://, ssh://, file://, git@host:path, debian:NAME or a local path)`,
    );
  }
  if (/\s/.test(source) && !existsSync(resolve(cwd, source))) {
    throw new SourceError(
      'invalid',
      `SOURCE contains white space and is no existing path: ${JSON.stringify(raw)}`,
    );
  }
  return parseLocalPath(resolve(cwd, source), raw);
}

function parseDebian(source: string): SourceSpec {
  const spec = source.slice('debian:'.length);
  const [pkg = '', version, ...rest] = spec.split('=');
  if (rest.length > 0 || !DEBIAN_PACKAGE_NAME.test(pkg)) {
    throw new SourceError(
      'invalid',
      `invalid Debian source package in ${source} (expected debian:NAME or debian:NAME=VERSION)`,
    );
  }
  if (version !== undefined && !DEBIAN_VERSION.test(version)) {
    throw new SourceError('invalid', `invalid Debian version in ${source}`);
  }
  return { kind: 'debian', raw: source, package: pkg, version: version ?? null, name: pkg };
}

function parseUrl(source: string, raw: string): SourceSpec {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new SourceError('invalid', `malformed URL: ${raw}`);
  }
  if (!GIT_SCHEMES.has(url.protocol)) {
    throw new SourceError(
      'invalid',
      `unknown SOURCE scheme ${url.protocol}// in ${raw} (use https, http, ssh, git or file)`,
    );
  }
  if (url.protocol === 'file:') {
    const path = fileURLToPath(url);
    if (!existsSync(path))
      throw new SourceError('invalid', `no such file or directory: ${path} (from ${raw})`);
    if (TARBALL_SUFFIX.test(path) && statSync(path).isFile()) return parseLocalPath(path, raw);
    return { kind: 'git', raw, url: source, name: nameFromUrlPath(url.pathname) };
  }
  if (!url.hostname) throw new SourceError('invalid', `URL without a host: ${raw}`);
  if ((url.protocol === 'https:' || url.protocol === 'http:') && TARBALL_SUFFIX.test(url.pathname)) {
    return { kind: 'tarball-url', raw, url: source, name: nameFromTarball(decodeURIComponent(url.pathname)) };
  }
  return { kind: 'git', raw, url: source, name: nameFromUrlPath(url.pathname) };
}

function parseLocalPath(path: string, raw: string): SourceSpec {
  if (!existsSync(path)) throw new SourceError('invalid', `no such file or directory: ${path}`);
  const stat = statSync(path);
  if (stat.isDirectory()) {
    if (readdirSync(path).length === 0) throw new SourceError('invalid', `${path} is an empty directory`);
    return { kind: 'directory', raw, path, name: sanitizeName(basename(path)) };
  }
  if (stat.isFile() && TARBALL_SUFFIX.test(path))
    return { kind: 'tarball', raw, path, name: nameFromTarball(path) };
  throw new SourceError(
    'invalid',
    `${path} is neither a directory nor a source tarball (.tar, .tar.gz, .tar.xz, …)`,
  );
}

/** The last path segment without `.git` (SPEC section 2). */
export function nameFromUrlPath(path: string): string {
  const segment =
    path
      .replace(/\/+$/, '')
      .split('/')
      .filter((s) => s !== '')
      .pop() ?? '';
  return sanitizeName(segment.replace(/\.git$/i, ''));
}

/** `zlib-1.3.1.tar.gz` → `zlib`; `tcc_0.9.27+git.orig.tar.bz2` → `tcc`. */
export function nameFromTarball(path: string): string {
  const file = basename(path)
    .replace(TARBALL_SUFFIX, '')
    .replace(/\.orig(-[A-Za-z0-9-]+)?$/, '');
  const withoutVersion = file.replace(/[-_]v?\d[\w.+~-]*$/, '');
  return sanitizeName(withoutVersion || file);
}

function sanitizeName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9._+-]/g, '-').replace(/^[.-]+/, '');
  if (clean === '')
    throw new SourceError('invalid', `cannot derive a package name from ${JSON.stringify(name)}`);
  return clean;
}
