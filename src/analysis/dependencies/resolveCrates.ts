import type { ContentsLookup } from './ContentsIndex.ts';
import { compareCrateVersions, satisfiesCrateRequirement } from './cargoVersion.ts';
import type { Dependency, RawDependency } from './Dependency.ts';

/** Where Debian's crates live: a cargo directory registry, one `<crate>-<version>` folder each. */
export const DEBIAN_CARGO_REGISTRY = '/usr/share/cargo/registry';
const REGISTRY_PREFIX = `${DEBIAN_CARGO_REGISTRY.slice(1)}/`;

/** The crate versions Debian packages: normalised crate name → versions with their packages. */
export type DebianCrates = Map<string, { version: string; packages: string[] }[]>;

/** Crate names compare without case and with `-` and `_` the same (as crates.io does). */
const normal = (name: string) => name.toLowerCase().replace(/_/g, '-');

/** The crates in Debian's registry, from the Contents index's `…/registry/<crate>-<version>/Cargo.toml`. */
export function debianCrates(contents: ContentsLookup | null): DebianCrates {
  const out: DebianCrates = new Map();
  for (const [path, packages] of contents?.under?.(REGISTRY_PREFIX) ?? []) {
    const folder = path.slice(REGISTRY_PREFIX.length).split('/')[0] ?? '';
    const match = /^(.+?)-(\d+\.\d+\.\d+[^/]*)$/.exec(folder);
    if (!match?.[1] || !match[2]) continue;
    const list = out.get(normal(match[1])) ?? [];
    list.push({ version: match[2], packages });
    out.set(normal(match[1]), list);
  }
  for (const list of out.values()) list.sort((a, b) => compareCrateVersions(b.version, a.version));
  return out;
}

/** The `-dev` package first: a crate folder belongs to one package, but be sure. */
const rank = (packages: string[]) =>
  [...new Set(packages)].sort((a, b) => Number(b.endsWith('-dev')) - Number(a.endsWith('-dev')));

/**
 * Resolves crate dependencies to Debian's `librust-*-dev` packages. A crate Cargo.toml asks for
 * takes the lock's pin when the lock has one that satisfies the requirement; the Debian version
 * chosen is the lock's exact version when Debian has it, else the newest that satisfies the
 * requirement, else the newest there is (marked as not satisfying). Crates only the lock names
 * (transitive ones) are kept, not required (apt brings them with the packages that depend on
 * them), so the report can say where Debian's versions differ from the lock's.
 */
export function resolveCrates(raw: readonly RawDependency[], contents: ContentsLookup | null): Dependency[] {
  const debian = debianCrates(contents);
  const locked = new Map<string, string[]>();
  let lockFile: string | undefined;
  for (const dep of raw)
    if (dep.crate?.scope === 'lock' && dep.crate.locked) {
      locked.set(normal(dep.name), [...(locked.get(normal(dep.name)) ?? []), dep.crate.locked]);
      lockFile ??= dep.file;
    }
  const workspace = new Map<string, string>();
  for (const dep of raw)
    if (dep.crate?.scope === 'workspace') workspace.set(normal(dep.name), dep.crate.requirement);

  const merged = new Map<string, RawDependency>();
  const usedPins = new Set<string>();
  for (const dep of raw) {
    if (dep.crate?.scope === 'lock') continue;
    const requirement =
      dep.crate?.requirement === '*'
        ? (workspace.get(normal(dep.name)) ?? '*')
        : (dep.crate?.requirement ?? '*');
    const pin = (locked.get(normal(dep.name)) ?? [])
      .filter((v) => satisfiesCrateRequirement(requirement, v))
      .sort((a, b) => compareCrateVersions(b, a))[0];
    if (pin) usedPins.add(`${normal(dep.name)}\0${pin}`);
    const key = `${normal(dep.name)}\0${requirement}`;
    const seen = merged.get(key);
    if (seen) {
      seen.required ||= dep.required;
      continue;
    }
    merged.set(key, {
      ...dep,
      crate: {
        requirement,
        scope: dep.crate?.scope ?? 'normal',
        ...(pin && lockFile ? { locked: pin, lockFile } : {}),
      },
    });
  }
  for (const dep of raw) {
    const pin = dep.crate?.scope === 'lock' ? dep.crate.locked : undefined;
    if (!pin || usedPins.has(`${normal(dep.name)}\0${pin}`)) continue;
    usedPins.add(`${normal(dep.name)}\0${pin}`);
    merged.set(`${normal(dep.name)}\0=${pin}`, {
      ...dep,
      required: false,
      crate: { ...(dep.crate ?? { requirement: `=${pin}`, scope: 'lock' }), lockFile: dep.file },
    });
  }

  return [...merged.values()].map((dep) => {
    const facts = dep.crate ?? { requirement: '*', scope: 'normal' as const };
    const versions = debian.get(normal(dep.name)) ?? [];
    // a crate only the lock names is satisfied by a semver-compatible version
    const requirement = facts.scope === 'lock' && facts.locked ? `^${facts.locked}` : facts.requirement;
    const exact = facts.locked ? versions.find((v) => v.version === facts.locked) : undefined;
    const fitting = versions.find((v) => satisfiesCrateRequirement(requirement, v.version));
    const chosen = exact ?? fitting ?? versions[0];
    return {
      ...dep,
      crate: {
        ...facts,
        debianVersion: chosen?.version ?? null,
        satisfies: chosen ? satisfiesCrateRequirement(requirement, chosen.version) : false,
      },
      debianPackages: chosen ? rank(chosen.packages) : [],
      resolvedBy: chosen ? ('contents' as const) : null,
    };
  });
}
