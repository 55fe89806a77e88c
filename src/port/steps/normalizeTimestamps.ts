import { closeSync, futimesSync } from 'node:fs';
import { posix } from 'node:path';
import { existsConfined, openConfined, walkConfined } from '../../fs/index.ts';

/** Generated autotools files, in the order make expects them to be newer than their inputs. */
const GENERATED_ORDER: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['aclocal.m4']),
  new Set(['configure', 'config.h.in', 'config.in', 'Makefile.in', 'stamp-h.in']),
];

/**
 * A git checkout gives files their checkout time in no particular order, so make may think
 * `Makefile.in` is older than `aclocal.m4` and try to run automake (of a version the sandbox does
 * not have). Give every file one time and the generated autotools files later ones, in order, so
 * a shipped configure is used as shipped. Only for autotools trees; touches no content.
 * The tree is the repository's: `dir` and every file are reached inside `root` without following
 * a link out of it, and times are set on the opened file, so no host file is touched.
 */
export async function normalizeAutotoolsTimestamps(
  root: string,
  dir = '.',
  base = new Date(Date.now() - 3_600_000),
): Promise<boolean> {
  const at = (name: string) => posix.join(dir, name);
  if (
    !existsConfined(root, at('configure.ac')) &&
    !existsConfined(root, at('configure.in')) &&
    !hasNested(root, dir)
  )
    return false;
  let entries: ReturnType<typeof walkConfined>['entries'];
  try {
    entries = walkConfined(root, { from: dir, skipDir: (name) => name === '.git' }).entries;
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.type !== 'file') continue;
    const rank = GENERATED_ORDER.findIndex((set) => set.has(entry.name));
    const time = new Date(base.getTime() + (rank + 1) * 2000);
    try {
      const { fd } = openConfined(root, entry.path);
      try {
        futimesSync(fd, time, time);
      } finally {
        closeSync(fd);
      }
    } catch {
      // gone or swapped since the walk: nothing to set
    }
  }
  return true;
}

function hasNested(root: string, dir: string): boolean {
  try {
    return walkConfined(root, { from: dir, maxDepth: 0 }).entries.some(
      (e) =>
        e.type === 'directory' &&
        (existsConfined(root, posix.join(e.path, 'configure.ac')) ||
          existsConfined(root, posix.join(e.path, 'configure.in'))),
    );
  } catch {
    return false;
  }
}
