import type { DebianSourceEntry, DebianSourceIndex } from './DebianSourceIndex.ts';

export interface DebianSourceMatch {
  entry: DebianSourceEntry;
  /** How the tree was matched to it, for the report. */
  via: string;
}

/**
 * Which Debian source package a tree that is not a `debian:` source is: one whose Homepage or
 * Vcs field is a URL the tree gives for itself, else one named exactly as the tree's build files
 * name the project. Several matches for one URL (a shared project site) are narrowed to the one
 * named like the project; anything still ambiguous matches nothing.
 */
export function matchDebianSource(
  index: DebianSourceIndex,
  urls: ReadonlyArray<{ url: string; file: string }>,
  projectNames: readonly string[],
): DebianSourceMatch | null {
  const names = new Set(projectNames.map((n) => n.toLowerCase()));
  const byUrl = new Map<string, { entry: DebianSourceEntry; via: string }>();
  for (const { url, file } of urls)
    for (const entry of index.forProject(url))
      if (!byUrl.has(entry.name)) byUrl.set(entry.name, { entry, via: `its URL ${url} (${file})` });
  const found = [...byUrl.values()];
  if (found.length === 1) return found[0] ?? null;
  const named = found.filter((f) => names.has(f.entry.name));
  if (named.length === 1) return named[0] ?? null;
  if (found.length > 1) return null;
  for (const name of names) {
    const entry = index.named(name);
    if (entry) return { entry, via: `the project name ${name} its build files declare` };
  }
  return null;
}
