import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { readArArchive } from './readArArchive.ts';

/** Where the members of a thin archive may be read from. */
export interface ThinArchiveScope {
  /** The tree the archive belongs to: a member outside it (by path or by symlink) is not read. */
  root: string;
  /**
   * The absolute path the root had where the archive was made (the sandbox's `/build/src`):
   * `ar` keeps absolute member paths as given, and these are read from the root.
   */
  builtAt?: string;
}

/** A member's bytes, or why they could not be read. */
export type ThinMember = { bytes: Uint8Array } | { unreadable: string };

/** Members larger than this are not read (no object file we verify is that large). */
const MAX_MEMBER_BYTES = 1024 * 1024 * 1024;

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Reads the files the members of a thin `ar` archive name (GNU `ar rcT` and meson store paths
 * relative to the archive's folder, absolute ones as given). A member is read only from a regular
 * file inside the scope's root, after symbolic links are resolved: a path that leaves the tree is
 * not followed. Returns null for an archive that is not thin; never throws.
 */
export async function readThinMembers(
  archivePath: string,
  bytes: Uint8Array,
  scope: ThinArchiveScope,
): Promise<Map<string, ThinMember> | null> {
  const archive = readArArchive(bytes);
  if (!archive.thin) return null;
  let root: string;
  try {
    root = await realpath(scope.root);
  } catch {
    root = resolve(scope.root);
  }
  const members = new Map<string, ThinMember>();
  for (const { name } of archive.members) {
    if (!members.has(name)) members.set(name, await readMember(archivePath, name, root, scope));
  }
  return members;
}

async function readMember(
  archivePath: string,
  name: string,
  root: string,
  scope: ThinArchiveScope,
): Promise<ThinMember> {
  let path: string;
  if (isAbsolute(name)) {
    if (!scope.builtAt || !inside(scope.builtAt, name))
      return {
        unreadable: `thin archive member ${name} is an absolute path outside the tree (not followed)`,
      };
    path = resolve(scope.root, relative(scope.builtAt, name));
  } else {
    path = resolve(dirname(archivePath), name);
  }
  if (!inside(resolve(scope.root), path))
    return { unreadable: `thin archive member ${name} is outside the tree (not followed)` };
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      unreadable: `thin archive member ${name}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    };
  }
  if (!inside(root, real))
    return { unreadable: `thin archive member ${name} is a symbolic link out of the tree (not followed)` };
  try {
    // O_NONBLOCK: a FIFO planted in the tree must not hang the verification.
    const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { unreadable: `thin archive member ${name} is not a regular file` };
      if (stat.size > MAX_MEMBER_BYTES)
        return { unreadable: `thin archive member ${name} is too large to inspect (${stat.size} bytes)` };
      return { bytes: new Uint8Array(await handle.readFile()) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { unreadable: `thin archive member ${name}: ${(error as Error).message}` };
  }
}
