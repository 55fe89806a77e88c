import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
} from 'node:fs';
import { DIRECTORY_FLAGS, fdPath, isLinkError, openConfined } from './openConfined.ts';

/** What an entry of a walked tree is. Links are reported as links: a walk never follows one. */
export type ConfinedEntryType = 'file' | 'directory' | 'link' | 'other';

export interface ConfinedEntry {
  /** Relative to the root, `/`-separated. */
  path: string;
  name: string;
  type: ConfinedEntryType;
  /** lstat size (a link's is the length of its target). */
  size: number;
  mode: number;
  /** lstat modification time, in milliseconds since the epoch. */
  mtimeMs: number;
  /** What a link points to, as written (never resolved by the walk). */
  target?: string;
  /** With `head`: the first bytes of a regular file (fewer when it is shorter). */
  head?: Buffer;
}

export interface WalkOptions {
  /** Where to start, relative to the root (links inside the tree followed); the root by default. */
  from?: string;
  /** Folders below the start entered at most (0: the start folder's entries only). */
  maxDepth?: number;
  /** Entries collected at most; the walk says `truncated` when it stopped there. */
  maxEntries?: number;
  /** Folders listed but not entered (`.git`), by name. */
  skipDir?: (name: string, path: string) => boolean;
  /**
   * Bytes read from the start of every regular file, through the folder already open (cheaper
   * than a confined open per file when a caller sorts files by their magic).
   */
  head?: number;
}

export const DEFAULT_WALK_DEPTH = 64;
/** Non-blocking, so a FIFO swapped in after the lstat cannot hang the walk. */
const HEAD_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
export const DEFAULT_WALK_ENTRIES = 500_000;

/**
 * Every entry under a folder of the tree, sorted by name within each folder, found with lstat
 * through descriptors of the folders walked (each opened with O_NOFOLLOW from its parent): a
 * folder swapped for a link to `/` while the walk runs is not entered, it just stops being
 * listed. Unreadable folders are skipped.
 */
export function walkConfined(
  root: string,
  options: WalkOptions = {},
): {
  entries: ConfinedEntry[];
  truncated: boolean;
} {
  const maxDepth = options.maxDepth ?? DEFAULT_WALK_DEPTH;
  const maxEntries = options.maxEntries ?? DEFAULT_WALK_ENTRIES;
  const entries: ConfinedEntry[] = [];
  let truncated = false;
  const start = openConfined(root, options.from ?? '.', { directory: true });
  const prefix = start.path === '.' ? '' : `${start.path}/`;

  const walk = (dirFd: number, rel: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(fdPath(dirFd)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (entries.length >= maxEntries) {
        truncated = true;
        return;
      }
      const path = `${rel}${name}`;
      const at = fdPath(dirFd, name);
      const stats = lstatSync(at, { throwIfNoEntry: false });
      if (!stats) continue;
      const type: ConfinedEntryType = stats.isSymbolicLink()
        ? 'link'
        : stats.isDirectory()
          ? 'directory'
          : stats.isFile()
            ? 'file'
            : 'other';
      const entry: ConfinedEntry = {
        path,
        name,
        type,
        size: stats.size,
        mode: stats.mode,
        mtimeMs: stats.mtimeMs,
      };
      if (type === 'link') {
        try {
          entry.target = readlinkSync(at);
        } catch {
          continue;
        }
      }
      if (type === 'file' && options.head) {
        const head = readHead(dirFd, name, options.head);
        if (head) entry.head = head;
      }
      entries.push(entry);
      if (type !== 'directory' || depth >= maxDepth || options.skipDir?.(name, path)) continue;
      let child: number;
      try {
        child = openSync(at, DIRECTORY_FLAGS);
      } catch (error) {
        if (isLinkError(error)) entry.type = 'link'; // swapped since the lstat
        continue;
      }
      try {
        walk(child, `${path}/`, depth + 1);
      } finally {
        closeSync(child);
      }
      if (truncated) return;
    }
  };

  try {
    walk(start.fd, prefix, 0);
  } finally {
    closeSync(start.fd);
  }
  return { entries, truncated };
}

/** The first bytes of a regular file in an open folder, or undefined when it is not one any more. */
function readHead(dirFd: number, name: string, bytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(fdPath(dirFd, name), HEAD_FLAGS);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const head = Buffer.alloc(bytes);
    let total = 0;
    while (total < bytes) {
      const read = readSync(fd, head, total, bytes - total, total);
      if (read === 0) break;
      total += read;
    }
    return head.subarray(0, total);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
