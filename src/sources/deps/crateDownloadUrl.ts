import { SourceError } from '../SourceError.ts';

/** A crate name as crates.io admits it, and a version that can be a folder name and a URL part. */
export const CRATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const CRATE_VERSION = /^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$/;

/** The index's prefix folders of a crate (cargo's sparse index layout: `1/`, `2/`, `3/a/`, `ab/cd/`). */
export function cratePrefix(name: string): string {
  if (name.length <= 2) return String(name.length);
  if (name.length === 3) return `3/${name[0]}`;
  return `${name.slice(0, 2)}/${name.slice(2, 4)}`;
}

/**
 * Where a crate version is downloaded from, by the index's config.json `dl`: with cargo's
 * markers (`{crate}`, `{version}`, `{prefix}`, `{lowerprefix}`, `{sha256-checksum}`) replaced,
 * or, without any, `{dl}/{crate}/{version}/download`. Names and versions are checked first:
 * they come from a Cargo.lock.
 */
export function crateDownloadUrl(dl: string, name: string, version: string, checksum: string): string {
  if (!CRATE_NAME.test(name)) throw new SourceError('invalid', `not a crate name: ${JSON.stringify(name)}`);
  if (!CRATE_VERSION.test(version))
    throw new SourceError('invalid', `not a crate version: ${JSON.stringify(`${name} ${version}`)}`);
  const markers = ['{crate}', '{version}', '{prefix}', '{lowerprefix}', '{sha256-checksum}'];
  if (!markers.some((m) => dl.includes(m))) return `${dl.replace(/\/+$/, '')}/${name}/${version}/download`;
  return dl
    .replaceAll('{crate}', name)
    .replaceAll('{version}', version)
    .replaceAll('{prefix}', cratePrefix(name))
    .replaceAll('{lowerprefix}', cratePrefix(name.toLowerCase()))
    .replaceAll('{sha256-checksum}', checksum);
}
