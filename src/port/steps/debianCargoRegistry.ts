import type { Dependency } from '../../analysis/index.ts';
import { DEBIAN_CARGO_REGISTRY } from '../../analysis/index.ts';

import { shellQuote } from '../../process/shellQuote.ts';
import { cargoSourceReplacement } from './cargoSourceReplacement.ts';

/** What building a cargo tree from Debian's packaged crates takes, and what it does to the lock. */
export interface DebianCargoRegistry {
  /** Commands of the prepare step: the source replacement, and the lock moved aside if need be. */
  prepare: string[];
  /** Packages beyond the resolved requirements: the lock's own crates, when the lock is kept. */
  packages: string[];
  /** The lock (path relative to the source root) and whether the build keeps it; null without one. */
  lock: { file: string; kept: boolean; notPackaged: string[] } | null;
}

/** The name Debian's dh-cargo gives the replacement source; the config is theirs, byte for byte in spirit. */
const SOURCE_NAME = 'dh-cargo-registry';

/** Where the lock goes when it cannot be kept: beside itself, so the report and a person can compare. */
export const SET_ASIDE_SUFFIX = '.upstream';

/**
 * Cargo offline from Debian's packaged crates, the way Debian builds its own Rust packages: a
 * source replacement of crates.io by the directory registry the `librust-*-dev` packages fill,
 * written to `$CARGO_HOME/config.toml` inside the sandbox (never into the tree: a tree's own
 * `.cargo/config.toml`, a vendored one for instance, still wins). A Cargo.lock is kept only when
 * Debian packages every version it pins (then those packages are installed too); otherwise it is
 * moved aside and cargo resolves against what Debian has, as Debian's builds do. Null when no
 * crate resolved to a package (nothing would fill the registry).
 */
export function debianCargoRegistry(dependencies: readonly Dependency[]): DebianCargoRegistry | null {
  const crates = dependencies.filter((d) => d.kind === 'crate');
  if (!crates.some((d) => d.required && d.debianPackages.length > 0)) return null;
  const prepare = [cargoSourceReplacement(SOURCE_NAME, DEBIAN_CARGO_REGISTRY)];
  const locked = crates.filter((d) => d.crate?.locked);
  const lockFile =
    crates.find((d) => d.crate?.lockFile)?.crate?.lockFile ??
    crates.find((d) => d.crate?.scope === 'lock')?.file;
  if (!lockFile) return { prepare, packages: [], lock: null };
  const notPackaged = locked
    .filter((d) => d.crate?.debianVersion !== d.crate?.locked)
    .map((d) => `${d.name} ${d.crate?.locked}`);
  if (notPackaged.length > 0) {
    const at = `"$RVPORT_SRC"/${shellQuote(lockFile)}`;
    prepare.push(`if [ -f ${at} ]; then mv -f ${at} ${at}${SET_ASIDE_SUFFIX}; fi`);
    return { prepare, packages: [], lock: { file: lockFile, kept: false, notPackaged } };
  }
  const packages = locked.flatMap((d) => d.debianPackages.slice(0, 1));
  return {
    prepare,
    packages: [...new Set(packages)].sort(),
    lock: { file: lockFile, kept: true, notPackaged },
  };
}
