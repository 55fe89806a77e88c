import type { PackageIndex } from './readPackageIndex.ts';

/**
 * Every package name an install of `roots` can pull in, per the index: the roots, and, again and
 * again, each alternative of each Pre-Depends and Depends of every version of a name reached, a
 * virtual name standing for every package that provides it. Wider than any one resolution (all
 * alternatives, all versions), so what apt picks is inside it; a name outside was not asked for.
 */
export function dependencyClosure(roots: readonly string[], index: PackageIndex): Set<string> {
  const reached = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (reached.has(name)) continue;
    reached.add(name);
    for (const provider of index.providers.get(name) ?? []) queue.push(provider);
    for (const entry of index.byName.get(name) ?? []) queue.push(...dependencyNames(entry.depends));
  }
  return reached;
}

/** The package names of a Depends field: every alternative, without versions or architectures. */
export function dependencyNames(depends: string): string[] {
  return depends
    .split(/[,|]/)
    .map((item) => item.trim().split(/[\s(:[<]/)[0] ?? '')
    .filter(Boolean);
}
