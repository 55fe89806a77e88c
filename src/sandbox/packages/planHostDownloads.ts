import { posix } from 'node:path';
import { dependencyClosure } from '../../debian/dependencyClosure.ts';
import { type IndexedPackage, indexKey, type PackageIndex } from '../../debian/readPackageIndex.ts';
import { type AptSelection, archiveFileName } from './aptSelections.ts';
import { DebDownloadError } from './downloadDebs.ts';
import { type AptDownload, isAllowedUri } from './parseAptUris.ts';

/** At most this many packages per install (a whole desktop is some 1,500). */
export const MAX_INSTALL_PACKAGES = 2000;
/** At most this many bytes of packages per install. */
export const MAX_INSTALL_BYTES = 4 * 1024 ** 3;
const DOWNLOAD_LIMITS = { packages: MAX_INSTALL_PACKAGES, bytes: MAX_INSTALL_BYTES };

export interface HostDownloadRequest {
  /** What apt in the sandbox says it would fetch: which package versions, nothing more. */
  selections: readonly AptSelection[];
  /** The packages the plan asked for (as given to apt-get install). */
  requested: readonly string[];
  /** The host's own copy of the lists (the read-only image's). */
  index: PackageIndex;
  /** The archive the lists came from; URIs are this and the index's Filename. */
  mirror: string;
  limits?: { packages: number; bytes: number };
}

/**
 * What the host downloads for an install, decided by the host: each package version apt picked
 * must be in the host's index and reachable from the requested packages through the index's
 * dependencies; the URI, size and SHA-256 are the index's. Refused as a whole, before anything is
 * fetched, when one is not, when apt's size differs from the index's, when a Filename leaves the
 * pool, or when the count or total size is above the limits.
 */
export function planHostDownloads(request: HostDownloadRequest): AptDownload[] {
  const selections = unique(request.selections);
  assertCount(selections.length, request.limits);
  const wanted = dependencyClosure(request.requested.map(packageName), request.index);
  const entries = selections.map((s) => lookUp(s, request.index, wanted));
  assertBytes(
    entries.reduce((sum, e) => sum + e.size, 0),
    request.limits,
  );
  return entries.map((entry) => download(entry, request.mirror));
}

/** Refuses more packages than one install may fetch. */
export function assertCount(count: number, limits = DOWNLOAD_LIMITS): void {
  if (count > limits.packages)
    throw refused(`${count} packages to fetch; at most ${limits.packages} per install`);
}

/** Refuses more bytes than one install may fetch. */
export function assertBytes(total: number, limits = DOWNLOAD_LIMITS): void {
  if (total > limits.bytes)
    throw refused(`the packages to fetch come to ${total} bytes; at most ${limits.bytes} per install`);
}

/** The index's entry for one selection, or why not. */
function lookUp(s: AptSelection, index: PackageIndex, wanted: ReadonlySet<string>): IndexedPackage {
  const label = `${s.name} ${s.version} (${s.architecture})`;
  const entry = index.byKey.get(indexKey(s.name, s.version, s.architecture));
  if (!entry) throw refused(`apt in the sandbox named ${label}, which the image's package lists do not have`);
  if (!wanted.has(s.name))
    throw refused(`apt in the sandbox named ${label}, which nothing requested depends on`);
  if (entry.size !== s.claimedSize)
    throw refused(
      `apt in the sandbox gave ${label} ${s.claimedSize} bytes; the image's lists say ${entry.size}`,
    );
  return entry;
}

/** The download of an index entry from `mirror`; its Filename must be a plain path in the pool. */
function download(entry: IndexedPackage, mirror: string): AptDownload {
  const uri = `${mirror.replace(/\/+$/, '')}/${entry.filename}`;
  if (!isPoolPath(entry.filename) || !isAllowedUri(uri, [mirror]))
    throw refused(
      `${entry.name}: the lists' Filename is not a path in the archive's pool: ${entry.filename}`,
    );
  return {
    uri,
    fileName: archiveFileName(entry.name, entry.version, entry.architecture),
    size: entry.size,
    hash: { algorithm: 'sha256', hex: entry.sha256 },
  };
}

/** `pool/…/NAME.deb`, relative, with no `.`, `..` or empty parts and no unusual characters. */
export function isPoolPath(filename: string): boolean {
  if (!/^pool\/[A-Za-z0-9+.~_%/-]+\.deb$/.test(filename)) return false;
  const parts = filename.split('/');
  return posix.normalize(filename) === filename && parts.every((p) => p !== '' && p !== '.' && p !== '..');
}

/** `name`, `name:arch` or `name=version` → `name`. */
const packageName = (request: string) => request.replace(/[:=].*$/, '');

function unique(selections: readonly AptSelection[]): AptSelection[] {
  const seen = new Map<string, AptSelection>();
  for (const s of selections) seen.set(indexKey(s.name, s.version, s.architecture), s);
  return [...seen.values()];
}

const refused = (message: string) => new DebDownloadError('refused', `${message}: nothing downloaded`);
