import { posix } from 'node:path';
import { readTextConfined, statConfined, walkConfined } from '../fs/index.ts';

/** Folders that never hold the package's own sources. */
export const IGNORED_DIRS = new Set(['.git', '.hg', '.svn', '.bzr', 'node_modules', '.pc']);
/** A tree larger than this is cut off (and says so) rather than walked for minutes. */
export const MAX_TREE_FILES = 200_000;
/** Entries (files, folders, links) walked at most, so a tree of empty folders ends too. */
export const MAX_TREE_ENTRIES = 2 * MAX_TREE_FILES;
/** Files larger than this are not read for scanning (generated code, data blobs). */
export const MAX_READ_BYTES = 2 * 1024 * 1024;

export interface RefusedLink {
  path: string;
  target: string;
  reason: string;
}

/**
 * A snapshot of a source tree's file names (relative, `/`-separated) with cached reads, so the
 * build-system detectors, dependency extractors and hazard rules share one walk.
 */
export class SourceTree {
  readonly files: readonly string[];
  readonly truncated: boolean;
  /** Links of the tree that were not followed because they lead out of it (or nowhere). */
  refusedLinks: readonly RefusedLink[] = [];
  private readonly fileSet: Set<string>;
  private readonly dirs = new Map<string, string[]>();
  private readonly cache = new Map<string, string | null>();

  constructor(
    readonly root: string,
    files: readonly string[],
    truncated = false,
  ) {
    this.files = [...files].sort();
    this.truncated = truncated;
    this.fileSet = new Set(this.files);
    for (const file of this.files) {
      const dir = posix.dirname(file) === '.' ? '' : posix.dirname(file);
      const list = this.dirs.get(dir) ?? [];
      if (list.length === 0) this.dirs.set(dir, list);
      list.push(posix.basename(file));
      // register every ancestor so empty-of-files folders still list
      for (let d = dir; d !== ''; ) {
        const parent = posix.dirname(d) === '.' ? '' : posix.dirname(d);
        if (!this.dirs.has(parent)) this.dirs.set(parent, []);
        d = parent;
      }
    }
  }

  /**
   * Walks a folder on disk without following a symbolic link. A link to a file that resolves
   * inside the tree counts as that file (`README -> README.md`); a link that leads out of the tree
   * is left out and listed in `refusedLinks`, with why.
   */
  static fromDisk(root: string): SourceTree {
    const files: string[] = [];
    const refused: RefusedLink[] = [];
    let walked: ReturnType<typeof walkConfined>;
    try {
      walked = walkConfined(root, {
        maxEntries: MAX_TREE_ENTRIES,
        skipDir: (name) => IGNORED_DIRS.has(name),
      });
    } catch {
      return new SourceTree(root, []);
    }
    for (const entry of walked.entries) {
      if (files.length >= MAX_TREE_FILES) break;
      if (entry.type === 'file') files.push(entry.path);
      else if (entry.type === 'link') {
        try {
          if (statConfined(root, entry.path).stats.isFile()) files.push(entry.path);
        } catch (error) {
          refused.push({ path: entry.path, target: entry.target ?? '', reason: (error as Error).message });
        }
      }
    }
    const tree = new SourceTree(root, files, walked.truncated || files.length >= MAX_TREE_FILES);
    tree.refusedLinks = refused;
    return tree;
  }

  has(path: string): boolean {
    return this.fileSet.has(path);
  }

  /** File names directly in `dir` ('' is the root). */
  filesIn(dir: string): readonly string[] {
    return this.dirs.get(dir) ?? [];
  }

  /** Every folder, root first, with its depth. */
  directories(maxDepth = Number.POSITIVE_INFINITY): string[] {
    return [...this.dirs.keys()]
      .filter((d) => depthOf(d) <= maxDepth)
      .sort((a, b) => depthOf(a) - depthOf(b) || (a < b ? -1 : 1));
  }

  /** The text of a file, or null when it is missing, too large or unreadable. */
  read(path: string): string | null {
    if (this.cache.has(path)) return this.cache.get(path) ?? null;
    const result = readTextConfined(this.root, path, { maxBytes: MAX_READ_BYTES, encoding: 'latin1' });
    const text = result.text;
    this.cache.set(path, text);
    return text;
  }

  /** Only for trees built in memory (tests): the contents by path. */
  static fromFiles(contents: Record<string, string>): SourceTree {
    const tree = new SourceTree('/nonexistent', Object.keys(contents));
    for (const [path, text] of Object.entries(contents)) tree.cache.set(path, text);
    return tree;
  }
}

export function depthOf(dir: string): number {
  return dir === '' ? 0 : dir.split('/').length;
}

export function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}
