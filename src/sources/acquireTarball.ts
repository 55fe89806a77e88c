import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Acquired } from './AcquiredSource.ts';
import { commitTree } from './commitTree.ts';
import { confinedGet } from './confinedGet.ts';
import { SourceError } from './SourceError.ts';
import type { StepOptions } from './StepOptions.ts';
import { type ExtractOptions, extractTarball } from './tar/extractTarball.ts';

export const DOWNLOAD_TIMEOUT_MS = 30 * 60 * 1000;
/** Larger downloads are refused: no source tarball we port is anywhere near. */
export const MAX_DOWNLOAD_BYTES = 4 * 1024 * 1024 * 1024;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * A tarball file becomes a tree with one commit, recorded in `gitDir` outside the tree (a `.git`
 * the tarball carries stays in the tree as data).
 */
export async function acquireTarballFile(
  file: string,
  tree: string,
  gitDir: string,
  scratch: string,
  options: ExtractOptions,
): Promise<Acquired> {
  options.log?.(`unpacking ${basename(file)}`);
  await extractTarball(file, tree, scratch, options);
  const sha256 = await sha256File(file);
  const { commit, listing } = await commitTree(
    tree,
    gitDir,
    `Import ${basename(file)}\n\nSHA256: ${sha256}`,
    options,
  );
  return {
    commit,
    gitDir,
    submodules: 'none',
    tarballSha256: sha256,
    debian: null,
    warnings: gitEntryWarnings(listing.gitEntries),
  };
}

/** A `.git` shipped in a tree is kept as data; say so, since git cannot record it. */
export function gitEntryWarnings(entries: readonly string[]): string[] {
  if (entries.length === 0) return [];
  const shown = entries.slice(0, 3).join(', ');
  return [
    `the source ships git metadata (${shown}${entries.length > 3 ? ', …' : ''}); it is kept as plain files, never used by rvport's git, and not part of the import commit`,
  ];
}

/**
 * Downloads a tarball URL into `dir` and returns the file's path. Every hop (redirects
 * included) reaches public addresses only, unless the user allowed private ones (`confinedGet`).
 */
export async function downloadTarball(url: string, dir: string, options: StepOptions): Promise<string> {
  options.log?.(`downloading ${url}`);
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const allowPrivateAddresses = options.fetch?.allowPrivateAddresses ?? false;
  const { response, url: final } = await confinedGet(url, { allowPrivateAddresses, signal });
  const name = posix.basename(new URL(final).pathname) || 'source.tar';
  const file = join(dir, name.replace(/[^A-Za-z0-9._+-]/g, '_'));
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(
        bytes > MAX_DOWNLOAD_BYTES
          ? new SourceError('acquire', `${url} is larger than ${MAX_DOWNLOAD_BYTES} bytes`)
          : null,
        chunk,
      );
    },
  });
  await pipeline(response, limit, createWriteStream(file));
  return file;
}
