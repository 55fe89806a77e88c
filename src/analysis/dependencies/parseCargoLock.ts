/** One package a Cargo.lock pins. */
export interface LockedCrate {
  name: string;
  version: string;
  /** `registry+…` for crates.io (or another registry), `git+…`; absent for the workspace's own. */
  source?: string;
  checksum?: string;
}

/**
 * The `[[package]]` entries of a Cargo.lock (every lock format version writes them the same
 * way: one `key = "value"` per line). Entries without a name or a version are skipped.
 */
export function parseCargoLock(text: string): LockedCrate[] {
  const out: LockedCrate[] = [];
  let current: Partial<LockedCrate> | null = null;
  const done = () => {
    if (current?.name && current.version) out.push(current as LockedCrate);
    current = null;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      done();
      if (line === '[[package]]') current = {};
      continue;
    }
    const match = /^(name|version|source|checksum)\s*=\s*"([^"]*)"$/.exec(line);
    if (current && match?.[1] && match[2] !== undefined)
      (current as Record<string, string>)[match[1]] = match[2];
  }
  done();
  return out;
}

/** True for a package from a registry (crates.io or another), the ones Debian's registry replaces. */
export function fromRegistry(crate: LockedCrate): boolean {
  return crate.source?.startsWith('registry+') === true || crate.source?.startsWith('sparse+') === true;
}
