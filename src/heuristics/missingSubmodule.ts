import { posix } from 'node:path';
import { SANDBOX_WORKSPACE } from '../sandbox/index.ts';
import { emptySubmodules, type Submodule } from '../sources/index.ts';

const TREE_PREFIX = `${SANDBOX_WORKSPACE}/src/`;

/**
 * The folders an error is reported from, which its relative paths are relative to: CMake's
 * (`CMake Error at third-party/CMakeLists.txt:12`) and the ones make enters
 * (`Making all in third-party`, `Entering directory '/build/src/third-party'`).
 */
function reportingDirs(output: string): string[] {
  const dirs = new Set<string>();
  for (const m of output.matchAll(/^CMake Error at ([^\s:]+)\/CMakeLists\.txt:\d+/gm))
    if (m[1] && !m[1].startsWith('/')) dirs.add(m[1]);
  for (const m of output.matchAll(/^Making \w+ in (\S+)$|Entering directory ['‘`]([^'’`]+)['’`]/gm)) {
    const dir = (m[1] ?? m[2]) as string;
    if (dir.startsWith(TREE_PREFIX)) dirs.add(dir.slice(TREE_PREFIX.length));
    else if (!dir.startsWith('/')) dirs.add(dir);
  }
  return [...dirs];
}

/**
 * Paths an error output names: paths with a slash (made relative to the tree when they are under
 * `/build/src`), and the folders make enters (`Making all in sub`, `Entering directory`).
 */
function namedPaths(output: string): string[] {
  const paths = new Set<string>();
  for (const m of output.matchAll(/(?:^|[\s'"`‘(=:,])((?:\/|\.\/)?[\w.+-]+(?:\/[\w.+-]+)+)\/?/gm)) {
    const raw = m[1] as string;
    if (raw.startsWith(TREE_PREFIX)) paths.add(raw.slice(TREE_PREFIX.length));
    else if (!raw.startsWith('/')) paths.add(raw.replace(/^\.\//, ''));
  }
  for (const m of output.matchAll(/^Making \w+ in (\S+)$|Entering directory ['‘`]([^'’`]+)['’`]/gm)) {
    const dir = (m[1] ?? m[2]) as string;
    if (dir.startsWith(TREE_PREFIX)) paths.add(dir.slice(TREE_PREFIX.length));
    else if (!dir.startsWith('/')) paths.add(dir);
  }
  return [...paths];
}

/**
 * The empty submodule an error output names, if any: a path in it, relative to the tree, to the
 * plan's folder or to a folder the error was reported from; else a missing header named after it. `planDir` is the
 * plan's folder relative to the tree (`.` for the top).
 */
export function submoduleNamedIn(
  output: string,
  submodules: readonly Submodule[],
  planDir = '.',
): Submodule | null {
  if (submodules.length === 0) return null;
  const bases = ['.', planDir, ...reportingDirs(output).flatMap((d) => [d, posix.join(planDir, d)])];
  for (const named of namedPaths(output)) {
    for (const base of bases) {
      const path = posix.normalize(posix.join(base, named));
      const sub = submodules.find((s) => path === s.path || path.startsWith(`${s.path}/`));
      if (sub) return sub;
    }
  }
  return headerOfSubmodule(output, submodules);
}

/**
 * The empty submodule a missing header is named after: `munit.h` (or `munit/munit.h`) when
 * `tests/munit` has no content. The compiler names the header, never the folder it was in.
 */
function headerOfSubmodule(output: string, submodules: readonly Submodule[]): Submodule | null {
  const leaf = (s: Submodule) => (s.path.split('/').at(-1) ?? '').toLowerCase();
  for (const m of output.matchAll(
    /fatal error: ([\w.+/-]+?)\.(?:h|hh|hpp|hxx): No such file or directory/g,
  )) {
    const header = (m[1] as string).toLowerCase();
    const first = header.split('/')[0] as string;
    const stem = header.split('/').at(-1) as string;
    const sub = submodules.find((s) => {
      const name = leaf(s);
      return name.length >= 3 && [name, name.replace(/^lib/, '')].some((n) => n === first || n === stem);
    });
    if (sub) return sub;
  }
  return null;
}

/** The empty submodule of the tree at `root` that an error output names, if any. */
export function missingSubmoduleIn(root: string, output: string, planDir = '.'): Submodule | null {
  if (!output) return null;
  return submoduleNamedIn(output, emptySubmodules(root), planDir);
}

/** How a person reads a submodule: its path, and its URL when `.gitmodules` gives one. */
export function describeSubmodule(sub: Submodule): string {
  return sub.url ? `\`${sub.path}\` (${sub.url})` : `\`${sub.path}\``;
}
