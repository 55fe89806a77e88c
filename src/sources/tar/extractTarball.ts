import { constants } from 'node:fs';
import { chmod, copyFile, lstat, lutimes, mkdir, open, rename, rm, symlink, utimes } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isSourceError, SourceError } from '../SourceError.ts';
import type { StepOptions } from '../StepOptions.ts';
import { openDecompressed } from './openDecompressed.ts';
import { readTar, type TarEntry } from './readTar.ts';
import { resolveLink } from './resolveLink.ts';

export const TAR_TIMEOUT_MS = 10 * 60 * 1000;
/** Uncompressed bytes of all files together; the largest source trees we port are far below. */
export const MAX_TARBALL_BYTES = 8 * 1024 * 1024 * 1024;
/** Entries (files, folders, links) of one tarball. */
export const MAX_TARBALL_ENTRIES = 500_000;
/** Files up to this size are held in memory and written a few at once (most of a source tree). */
const SMALL_FILE_BYTES = 1024 * 1024;
const PARALLEL_WRITES = 16;

export interface TarballLimits {
  maxBytes: number;
  maxEntries: number;
}

export interface ExtractOptions extends StepOptions {
  limits?: Partial<TarballLimits>;
}

export interface ExtractTarballOptions extends ExtractOptions {
  /**
   * Unpack only this folder of the archive (a normalized path such as
   * `usr/share/cargo/registry/itoa-1.0.14`), which becomes the tree's root; an archive without
   * it is refused. Entries elsewhere are still checked, never written.
   */
  root?: string;
}

/** Why an entry name would land outside the extraction folder, or null when it is safe. */
export function unsafeEntryReason(name: string): string | null {
  if (name.includes('\0')) return 'NUL character';
  if (name.startsWith('/')) return 'absolute path';
  if (name.split('/').includes('..')) return "'..' component";
  return null;
}

/** `./a//b/` → `a/b`; the archive's root entry (`./`) becomes ''. */
export function normalizeEntryName(name: string): string {
  return name
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

type Node =
  | { kind: 'directory'; mode: number; mtime: number }
  | { kind: 'file' }
  | { kind: 'symlink'; target: string; mtime: number };

function refuse(file: string, what: string): SourceError {
  return new SourceError('unsafe-entry', `${what}; refusing ${basename(file)}`);
}

/**
 * Unpacks a tarball into `dest` (created), admitting only regular files, folders, symbolic
 * links whose target stays inside the final tree, and hard links to files already unpacked
 * (which become copies). Devices, fifos and anything else are refused; setuid, setgid and
 * sticky bits are dropped. rvport reads the archive itself and writes each entry with
 * O_NOFOLLOW|O_EXCL while no symbolic link exists yet: links are made last, after every path was
 * checked, so nothing is ever written through one. A single top folder is dropped when every
 * entry lives in one (`tcc` ships without), and links are judged from where they end up.
 * Everything happens in `scratch`; on a refusal the caller removes it.
 */
export async function extractTarball(
  file: string,
  dest: string,
  scratch: string,
  options: ExtractTarballOptions = {},
): Promise<void> {
  try {
    await unpackInto(file, dest, scratch, options);
  } catch (error) {
    // a name too long for this file system and the like: a clear refusal, not a crash
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof Error && !isSourceError(error) && typeof code === 'string' && code.startsWith('E'))
      throw new SourceError('acquire', `cannot unpack ${basename(file)}: ${error.message}`);
    throw error;
  }
}

async function unpackInto(
  file: string,
  dest: string,
  scratch: string,
  options: ExtractTarballOptions,
): Promise<void> {
  const root = options.root ? normalizeEntryName(options.root) : '';
  const inRoot = (path: string) => root === '' || path === root || path.startsWith(`${root}/`);
  const limits: TarballLimits = {
    maxBytes: options.limits?.maxBytes ?? MAX_TARBALL_BYTES,
    maxEntries: options.limits?.maxEntries ?? MAX_TARBALL_ENTRIES,
  };
  const unpack = join(scratch, `unpack-${basename(dest)}`);
  await rm(unpack, { recursive: true, force: true });
  await mkdir(unpack, { recursive: true });
  const timeout = AbortSignal.timeout(TAR_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const nodes = new Map<string, Node>();
  let entries = 0;
  let bytes = 0;
  // Small files are written while the archive is read on; every write still goes to a new path
  // under folders of this archive, and no link exists before all writes are done.
  const writes = new Set<Promise<void>>();
  let writeFailure: unknown = null;
  const settleWrites = async () => {
    await Promise.all(writes);
    if (writeFailure) throw writeFailure;
  };

  const addBytes = (n: number, name: string) => {
    bytes += n;
    if (bytes > limits.maxBytes) {
      throw new SourceError(
        'archive-too-large',
        `tarball ${basename(file)} unpacks to more than ${limits.maxBytes} bytes (at ${JSON.stringify(name)}); refusing it`,
      );
    }
  };
  /** Parents must be folders of this archive, never a link or a file (no write through a link). */
  const ensureParents = async (path: string) => {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      const node = nodes.get(parent);
      if (node?.kind === 'symlink')
        throw refuse(
          file,
          `tarball entry ${JSON.stringify(path)} lies under the symbolic link ${JSON.stringify(parent)}`,
        );
      if (node?.kind === 'file')
        throw refuse(
          file,
          `tarball entry ${JSON.stringify(path)} lies under the file ${JSON.stringify(parent)}`,
        );
      if (!node) {
        nodes.set(parent, { kind: 'directory', mode: 0o755, mtime: 0 });
        await mkdir(join(unpack, parent));
      }
    }
  };

  const visit = async (entry: TarEntry, content: AsyncIterable<Buffer>) => {
    signal.throwIfAborted();
    if (writeFailure) throw writeFailure;
    entries += 1;
    if (entries > limits.maxEntries) {
      throw new SourceError(
        'archive-too-many-files',
        `tarball ${basename(file)} has more than ${limits.maxEntries} entries; refusing it`,
      );
    }
    const why = unsafeEntryReason(entry.name);
    if (why)
      throw refuse(
        file,
        `tarball entry ${JSON.stringify(entry.name)} would land outside the target (${why})`,
      );
    const path = normalizeEntryName(entry.name);
    if (path === '') return; // the archive's own root folder
    if (!inRoot(path)) return;
    const existing = nodes.get(path);
    if (entry.type === 'directory') {
      if (existing && existing.kind !== 'directory')
        throw refuse(file, `tarball entry ${JSON.stringify(path)} is both a folder and a ${existing.kind}`);
      await ensureParents(path);
      if (!existing) await mkdir(join(unpack, path));
      nodes.set(path, { kind: 'directory', mode: entry.mode, mtime: entry.mtime });
      return;
    }
    if (existing)
      throw refuse(
        file,
        `tarball entry ${JSON.stringify(path)} appears twice (as ${existing.kind} and ${entry.type})`,
      );
    if (entry.type === 'file') {
      addBytes(entry.size, path);
      await ensureParents(path);
      nodes.set(path, { kind: 'file' });
      if (entry.size > SMALL_FILE_BYTES) {
        await settleWrites();
        await writeFile(join(unpack, path), content, entry);
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of content) chunks.push(chunk);
      const write = writeFile(join(unpack, path), chunks, entry)
        .catch((error: unknown) => {
          writeFailure ??= error;
        })
        .finally(() => writes.delete(write));
      writes.add(write);
      if (writes.size >= PARALLEL_WRITES) await Promise.race(writes);
      return;
    }
    if (entry.type === 'hardlink') {
      const why = unsafeEntryReason(entry.linkname);
      const target = normalizeEntryName(entry.linkname);
      if (why || nodes.get(target)?.kind !== 'file')
        throw refuse(
          file,
          `tarball hard link ${JSON.stringify(path)} -> ${JSON.stringify(entry.linkname)} does not name a file unpacked before it`,
        );
      await settleWrites(); // the file it copies must be complete
      addBytes((await lstat(join(unpack, target))).size, path);
      await ensureParents(path);
      nodes.set(path, { kind: 'file' });
      await copyFile(join(unpack, target), join(unpack, path), constants.COPYFILE_EXCL);
      return;
    }
    if (entry.type === 'symlink') {
      if (entry.linkname === '')
        throw refuse(file, `tarball symbolic link ${JSON.stringify(path)} has no target`);
      await ensureParents(path);
      nodes.set(path, { kind: 'symlink', target: entry.linkname, mtime: entry.mtime });
      return;
    }
    const kind =
      entry.type === 'unsupported'
        ? `of unsupported type ${JSON.stringify(entry.typeflag)}`
        : `a ${entry.type}`;
    throw refuse(
      file,
      `tarball entry ${JSON.stringify(path)} is ${kind}; only files, folders and symbolic links are unpacked`,
    );
  };

  const input = await openDecompressed(file, signal);
  try {
    await readTar(input.stream, visit);
    await settleWrites();
  } catch (error) {
    input.close();
    await input.finished().catch(() => {});
    await Promise.allSettled(writes); // nothing may still write when the caller removes the folder
    throw signal.aborted && !options.signal?.aborted
      ? new SourceError('acquire', `unpacking ${basename(file)} took longer than ${TAR_TIMEOUT_MS / 1000} s`)
      : error;
  }
  input.close();
  await input.finished();
  if (root && nodes.get(root)?.kind !== 'directory')
    throw new SourceError('acquire', `${basename(file)} has no folder ${root}; refusing it`);
  if (nodes.size === 0) throw new SourceError('invalid', `${basename(file)} is an empty tarball`);

  const tops = new Set([...nodes.keys()].map((p) => p.split('/')[0]));
  const [only] = tops;
  const strip = root
    ? `${root}/`
    : tops.size === 1 && only !== undefined && nodes.get(only)?.kind === 'directory'
      ? `${only}/`
      : '';
  const final = (path: string) => path.slice(strip.length);
  const links = new Map<string, string>();
  for (const [path, node] of nodes) if (node.kind === 'symlink') links.set(final(path), node.target);
  for (const [link, target] of links) {
    const where = resolveLink(links, link, target);
    if (where === 'outside')
      throw refuse(file, `tarball symbolic link ${link} -> ${target} points outside the tree`);
    if (where === 'loop') throw refuse(file, `tarball symbolic link ${link} -> ${target} is a loop`);
  }
  for (const [path, node] of nodes) {
    if (node.kind !== 'symlink') continue;
    await symlink(node.target, join(unpack, path));
    await lutimes(join(unpack, path), node.mtime, node.mtime);
  }
  // folders last and deepest first: writing into a folder changes its time
  const folders = [...nodes]
    .filter(([, n]) => n.kind === 'directory')
    .sort(([a], [b]) => b.split('/').length - a.split('/').length);
  for (const [path, node] of folders) {
    if (node.kind !== 'directory') continue;
    await chmod(join(unpack, path), (node.mode & 0o777) | 0o700);
    if (node.mtime) await utimes(join(unpack, path), node.mtime, node.mtime);
  }
  const top = strip ? join(unpack, strip) : unpack;
  await rm(dest, { recursive: true, force: true });
  await mkdir(dirname(dest), { recursive: true });
  await rename(top, dest);
}

/** Writes one file's content to a new path; never follows or replaces anything there. */
async function writeFile(
  path: string,
  content: AsyncIterable<Buffer> | Iterable<Buffer>,
  entry: TarEntry,
): Promise<void> {
  const handle = await open(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    for await (const chunk of content) await handle.write(chunk);
    await handle.chmod(entry.mode & 0o777);
    await handle.utimes(entry.mtime, entry.mtime);
  } finally {
    await handle.close();
  }
}
