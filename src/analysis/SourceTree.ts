import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';

/** Folders that never hold the package's own sources. */
export const IGNORED_DIRS = new Set(['.git', '.hg', '.svn', '.bzr', 'node_modules', '.pc']);
/** A tree larger than this is cut off (and says so) rather than walked for minutes. */
export const MAX_TREE_FILES = 200_000;
/** Files larger than this are not read for scanning (generated code, data blobs). */
export const MAX_READ_BYTES = 2 * 1024 * 1024;

/**
 * A snapshot of a source tree's file names (relative, `/`-separated) with cached reads, so the
 * build-system detectors, dependency extractors and hazard rules share one walk.
 */
export class SourceTree {
  readonly files: readonly string[];
  readonly truncated: boolean;
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

  /** Walks a folder on disk (symbolic links are not followed). */
  static fromDisk(root: string): SourceTree {
    const files: string[] = [];
    let truncated = false;
    const walk = (rel: string): void => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = readdirSync(join(root, rel), { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        if (files.length >= MAX_TREE_FILES) {
          truncated = true;
          return;
        }
        const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!IGNORED_DIRS.has(entry.name)) walk(path);
        } else if (entry.isFile()) files.push(path);
      }
    };
    walk('');
    return new SourceTree(root, files, truncated);
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
    let text: string | null = null;
    try {
      const full = join(this.root, path);
      if (statSync(full).size <= MAX_READ_BYTES) text = readFileSync(full, 'latin1');
    } catch {
      text = null;
    }
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
