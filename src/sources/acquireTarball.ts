import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, readlink, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, posix, relative, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { runProcess } from '../process/runProcess.ts';
import type { StepOptions } from './acquireGit.ts';
import type { Acquired } from './acquireSource.ts';
import { commitTree } from './git.ts';
import { SourceError } from './SourceError.ts';

export const TAR_TIMEOUT_MS = 10 * 60 * 1000;
export const DOWNLOAD_TIMEOUT_MS = 30 * 60 * 1000;
/** Larger downloads are refused: no source tarball we port is anywhere near. */
export const MAX_DOWNLOAD_BYTES = 4 * 1024 * 1024 * 1024;

/** Why an entry name would land outside the extraction folder, or null when it is safe. */
export function unsafeEntryReason(name: string): string | null {
  if (name.startsWith('/')) return 'absolute path';
  if (name.split('/').includes('..')) return "'..' component";
  return null;
}

async function tar(args: readonly string[], options: StepOptions): Promise<string> {
  const result = await runProcess({
    command: ['tar', ...args],
    timeoutMs: TAR_TIMEOUT_MS,
    signal: options.signal,
    captureBytes: 64 * 1024 * 1024,
  });
  if (result.exitCode !== 0 || result.truncated) {
    const detail = result.stderr.trim().split('\n').slice(-2).join(' / ');
    throw new SourceError(`cannot read tarball: ${detail || `tar exited ${result.exitCode}`}`, 'acquire');
  }
  return result.stdout;
}

/**
 * Refuses a tarball with an entry that would land outside the target: absolute names, `..`
 * components, and hard links to such names. Symbolic links are checked after extraction.
 */
export async function checkTarballEntries(file: string, options: StepOptions): Promise<number> {
  const names = (await tar(['--list', '--file', file], options)).split('\n').filter((n) => n !== '');
  for (const name of names) {
    const why = unsafeEntryReason(name);
    if (why)
      throw new SourceError(
        `tarball entry ${JSON.stringify(name)} would land outside the target (${why}); refusing ${basename(file)}`,
      );
  }
  const verbose = (await tar(['--list', '--verbose', '--file', file], options)).split('\n');
  for (const line of verbose) {
    const link = / link to (.*)$/.exec(line);
    if (line.startsWith('h') && link?.[1] && unsafeEntryReason(link[1])) {
      throw new SourceError(
        `tarball hard link to ${JSON.stringify(link[1])} points outside the target; refusing ${basename(file)}`,
      );
    }
  }
  if (names.length === 0) throw new SourceError(`${basename(file)} is an empty tarball`);
  return names.length;
}

/** Every symbolic link under `root` must resolve inside it. */
async function checkSymlinks(root: string, dir: string = root): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      const target = await readlink(path);
      const resolved = resolve(dirname(path), target);
      const rel = relative(root, resolved);
      if (isAbsolute(target) || rel.startsWith('..') || isAbsolute(rel)) {
        throw new SourceError(
          `tarball symbolic link ${relative(root, path)} -> ${target} points outside the target; refusing`,
        );
      }
    } else if (entry.isDirectory()) {
      await checkSymlinks(root, path);
    }
  }
}

/**
 * Extracts a tarball into `dest` (created), dropping a single top-level folder when every entry
 * lives in one, as source tarballs usually do (`tcc` ships one without).
 */
export async function extractTarball(
  file: string,
  dest: string,
  scratch: string,
  options: StepOptions,
): Promise<void> {
  await checkTarballEntries(file, options);
  const unpack = join(scratch, `unpack-${basename(dest)}`);
  await rm(unpack, { recursive: true, force: true });
  await mkdir(unpack, { recursive: true });
  await tar(
    ['--extract', '--file', file, '--directory', unpack, '--no-same-owner', '--delay-directory-restore'],
    options,
  );
  await checkSymlinks(unpack);
  const top = await readdir(unpack);
  const only = top.length === 1 && top[0] ? join(unpack, top[0]) : null;
  const root = only && (await lstat(only)).isDirectory() ? only : unpack;
  await rm(dest, { recursive: true, force: true });
  await mkdir(dirname(dest), { recursive: true });
  await rename(root, dest);
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** A tarball file becomes a repository with one commit. */
export async function acquireTarballFile(
  file: string,
  tree: string,
  scratch: string,
  options: StepOptions,
): Promise<Acquired> {
  options.log?.(`unpacking ${basename(file)}`);
  await extractTarball(file, tree, scratch, options);
  const sha256 = await sha256File(file);
  const commit = await commitTree(tree, `Import ${basename(file)}\n\nSHA256: ${sha256}`, options);
  return { commit, submodules: 'none', tarballSha256: sha256, debian: null, warnings: [] };
}

/** Downloads a tarball URL into `dir` and returns the file's path. */
export async function downloadTarball(url: string, dir: string, options: StepOptions): Promise<string> {
  options.log?.(`downloading ${url}`);
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow', signal });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new SourceError(`cannot download ${url}${cause || `: ${String(error)}`}`, 'acquire');
  }
  if (!response.ok || !response.body) {
    throw new SourceError(`cannot download ${url}: HTTP ${response.status}`, 'acquire');
  }
  const name = posix.basename(new URL(response.url || url).pathname) || 'source.tar';
  const file = join(dir, name.replace(/[^A-Za-z0-9._+-]/g, '_'));
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(
        bytes > MAX_DOWNLOAD_BYTES
          ? new SourceError(`${url} is larger than ${MAX_DOWNLOAD_BYTES} bytes`, 'acquire')
          : null,
        chunk,
      );
    },
  });
  await pipeline(Readable.fromWeb(response.body as WebReadableStream), limit, createWriteStream(file));
  return file;
}
