import { lstat, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type DiffGuardOptions, type DiffVerdict, guardUnifiedDiff } from './guardUnifiedDiff.ts';

/**
 * guardUnifiedDiff, and then against the tree the diff is for: no path it names may pass
 * through (or be) a symbolic link there, since writing through `lib -> /native/usr/lib` writes
 * outside the tree. Each name is checked as written and with its first component removed, the
 * two ways `git apply -p0`/`-p1` read it.
 */
export async function guardDiffInTree(
  diff: string,
  tree: string,
  options: DiffGuardOptions = {},
): Promise<DiffVerdict> {
  const verdict = guardUnifiedDiff(diff, options);
  if (!verdict.allowed) return verdict;
  const candidates = new Set<string>();
  for (const name of [...verdict.names, ...verdict.paths]) {
    candidates.add(name);
    const slash = name.indexOf('/');
    if (slash !== -1) candidates.add(name.slice(slash + 1));
  }
  for (const candidate of candidates) {
    const parts = candidate.split('/').filter((p) => p !== '' && p !== '.');
    for (let n = 1; n <= parts.length; n++) {
      const prefix = parts.slice(0, n).join('/');
      const stat = await lstat(join(tree, prefix)).catch(() => null);
      if (!stat) break;
      if (stat.isSymbolicLink()) {
        const target = await readlink(join(tree, prefix)).catch(() => '?');
        return {
          allowed: false,
          reason: `the patch writes through a symbolic link in the source (${prefix} -> ${target})`,
        };
      }
    }
  }
  return verdict;
}
