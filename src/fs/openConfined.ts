import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { ConfinedPathError } from './ConfinedPathError.ts';

/**
 * Paths of a source or build tree are read on the host, but the tree is written by a repository
 * or by a build we do not trust: any component may be a symbolic link to the host's own files
 * (`configure.ac -> /etc/shadow`, `dest -> /`), and a build still running may swap a folder for a
 * link between our check and our read. So a path is never handed to the kernel whole: each
 * component is looked up in the folder opened before it (`/proc/self/fd/N/name` gives Node the
 * openat it lacks), with O_NOFOLLOW, and `..` and link targets are resolved here, against the
 * folders actually walked. A link that stays inside the tree is followed (`README -> README.md`);
 * one that leads out of it, absolute or through `..`, is refused.
 */

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;
/** The kernel's own limit on links followed in one lookup. */
export const MAX_LINKS = 40;
export const DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Non-blocking so a FIFO swapped in at the last moment cannot hang the open. */
const FILE_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

/** The path of `name` inside the folder open as `dirFd` (the folder itself without a name). */
export function fdPath(dirFd: number, name = '.'): string {
  return `/proc/self/fd/${dirFd}/${name}`;
}

/** Opens the root of a tree; a root that is itself a symbolic link is refused. */
export function openRoot(root: string): number {
  try {
    return openSync(root, DIRECTORY_FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    if (
      code === 'ELOOP' ||
      (code === 'ENOTDIR' && lstatSync(root, { throwIfNoEntry: false })?.isSymbolicLink())
    )
      throw new ConfinedPathError('outside-tree', `${root} is a symbolic link; it is not followed`, {
        path: '.',
      });
    if (code === 'ENOENT') throw new ConfinedPathError('not-found', `${root} does not exist`, { path: '.' });
    if (code === 'ENOTDIR')
      throw new ConfinedPathError('not-a-directory', `${root} is not a folder`, { path: '.' });
    throw error;
  }
}

export interface ConfinedLocation {
  /** The folder that holds the final component, open. */
  dirFd: number;
  /** The final component's name in it; null when the path is that folder itself. */
  name: string | null;
  /** The path resolved inside the tree (`.` for the root), `/`-separated, links replaced. */
  path: string;
  /** lstat of the final component (a link only when `followLast` is false). */
  stats: Stats;
}

/**
 * Resolves `rel` inside `root` and runs `use` while the folder holding the final component is
 * open; every folder opened on the way is closed afterwards, whatever `use` does.
 */
export function locateConfined<T>(
  root: string,
  rel: string,
  use: (at: ConfinedLocation) => T,
  options: { followLast?: boolean } = {},
): T {
  const followLast = options.followLast ?? true;
  let pending = components(rel, rel);
  const rootFd = openRoot(root);
  const opened: number[] = [];
  const names: string[] = [];
  let links = 0;
  let lastLink: string | null = null;
  const countLink = (at: string) => {
    if (++links > MAX_LINKS)
      throw new ConfinedPathError('link-loop', `${rel}: more than ${MAX_LINKS} symbolic links at ${at}`, {
        path: rel,
      });
  };
  try {
    for (;;) {
      const dirFd = opened.at(-1) ?? rootFd;
      const name = pending.shift();
      if (name === undefined)
        return use({ dirFd, name: null, path: names.join('/') || '.', stats: fstatSync(dirFd) });
      if (name === '..') {
        const up = opened.pop();
        if (up === undefined)
          throw new ConfinedPathError(
            'outside-tree',
            lastLink
              ? `${rel}: ${lastLink} leads outside the tree`
              : `${rel} leads outside the tree (through ..)`,
            { path: rel },
          );
        closeSync(up);
        names.pop();
        continue;
      }
      const here = [...names, name].join('/');
      const path = fdPath(dirFd, name);
      const last = pending.length === 0;
      if (!last) {
        // most components are plain folders: open first, look closer only when that fails
        try {
          opened.push(openSync(path, DIRECTORY_FLAGS));
          names.push(name);
          continue;
        } catch (error) {
          if (errnoOf(error) === 'ENOENT')
            throw new ConfinedPathError('not-found', `${rel}: ${here} does not exist`, { path: rel });
          if (!isLinkError(error)) throw error;
        }
      }
      const stats = lstatSync(path, { throwIfNoEntry: false });
      if (!stats) throw new ConfinedPathError('not-found', `${rel}: ${here} does not exist`, { path: rel });
      if (stats.isSymbolicLink() && !(last && !followLast)) {
        countLink(here);
        const target = readTarget(path, rel, here);
        if (target.startsWith('/'))
          throw new ConfinedPathError(
            'outside-tree',
            `${rel}: the symbolic link ${here} -> ${target} leads outside the tree (absolute target)`,
            { path: rel },
          );
        const parts = components(target, rel);
        lastLink = `the symbolic link ${here} -> ${target}`;
        pending = [...parts, ...pending];
        continue;
      }
      if (last) return use({ dirFd, name, path: here, stats });
      if (!stats.isDirectory())
        throw new ConfinedPathError('not-a-directory', `${rel}: ${here} is not a folder`, { path: rel });
      // a folder now, a link when opened: it is being swapped; look again (counted, so it ends)
      countLink(here);
      pending.unshift(name);
    }
  } finally {
    for (const fd of opened) closeSync(fd);
    closeSync(rootFd);
  }
}

export interface ConfinedHandle {
  /** Open read-only; the caller closes it. */
  fd: number;
  /** The path resolved inside the tree. */
  path: string;
  /** fstat of the open file: what was opened, not what a path named a moment before. */
  stats: Stats;
}

/**
 * Opens a regular file (or with `directory`, a folder) of the tree read-only. Devices, FIFOs and
 * sockets are refused before they are opened: opening one can block or talk to a driver.
 */
export function openConfined(
  root: string,
  rel: string,
  options: { directory?: boolean } = {},
): ConfinedHandle {
  return locateConfined(root, rel, ({ dirFd, name, path, stats }) => {
    const directory = options.directory ?? false;
    if (directory ? !stats.isDirectory() : !stats.isFile()) throw notKind(rel, path, directory, stats);
    let fd: number;
    try {
      fd = openSync(fdPath(dirFd, name ?? '.'), directory ? DIRECTORY_FLAGS : FILE_FLAGS);
    } catch (error) {
      if (isLinkError(error))
        throw new ConfinedPathError('outside-tree', `${rel}: ${path} changed while it was opened`, {
          path: rel,
        });
      throw error;
    }
    const opened = fstatSync(fd);
    if (directory ? !opened.isDirectory() : !opened.isFile()) {
      closeSync(fd);
      throw notKind(rel, path, directory, opened);
    }
    return { fd, path, stats: opened };
  });
}

/** What `rel` is inside the tree, links inside the tree followed; the path it resolves to. */
export function statConfined(root: string, rel: string): { path: string; stats: Stats } {
  return locateConfined(root, rel, ({ path, stats }) => ({ path, stats }));
}

/** True when `rel` is a regular file (or with `directory`, a folder) inside the tree. */
export function existsConfined(root: string, rel: string, options: { directory?: boolean } = {}): boolean {
  try {
    const { stats } = statConfined(root, rel);
    return options.directory ? stats.isDirectory() : stats.isFile();
  } catch {
    return false;
  }
}

/** The components of a relative path; absolute paths and NUL bytes are refused. */
function components(path: string, asked: string): string[] {
  if (path === '' || path.startsWith('/') || path.includes('\0'))
    throw new ConfinedPathError('invalid-path', `${JSON.stringify(asked)} is not a path inside the tree`, {
      path: asked,
    });
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

function readTarget(path: string, rel: string, here: string): string {
  try {
    return readlinkSync(path);
  } catch {
    throw new ConfinedPathError('not-found', `${rel}: the symbolic link ${here} vanished`, { path: rel });
  }
}

function notKind(rel: string, path: string, directory: boolean, stats: Stats): ConfinedPathError {
  return directory
    ? new ConfinedPathError('not-a-directory', `${rel}: ${path} is not a folder`, { path: rel })
    : new ConfinedPathError('not-a-file', `${rel}: ${path} is ${describeKind(stats)}, not a regular file`, {
        path: rel,
      });
}

export function describeKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'a regular file';
}

/**
 * What O_NOFOLLOW answers for a link: ELOOP, or ENOTDIR with O_DIRECTORY. (A folder turned into a
 * file answers ENOTDIR too; either way the thing opened is not the one looked at.)
 */
export function isLinkError(error: unknown): boolean {
  const code = errnoOf(error);
  return code === 'ELOOP' || code === 'ENOTDIR';
}

export function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}
