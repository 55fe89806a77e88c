/**
 * The package to install for each Build-Depends relation: its first alternative apt in the
 * sandbox can install (as Debian's own resolver does for a build), or, when the package lists
 * cannot be read (`installable` null), the first alternative. A relation none of whose
 * alternatives is installable is returned in `unavailable`, written as Debian writes it.
 */
export function chooseBuildDepends(
  relations: readonly (readonly string[])[],
  installable: ReadonlySet<string> | null,
): { packages: string[]; unavailable: string[] } {
  const packages = new Set<string>();
  const unavailable: string[] = [];
  for (const alternatives of relations) {
    const chosen = installable ? alternatives.find((name) => installable.has(name)) : alternatives[0];
    if (chosen) packages.add(chosen);
    else unavailable.push(alternatives.join(' | '));
  }
  return { packages: [...packages], unavailable };
}
