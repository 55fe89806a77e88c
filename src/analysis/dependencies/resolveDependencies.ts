import { DEBIAN_ALIASES } from './aliases.ts';
import { type ContentsLookup, GOCODE_PREFIX } from './ContentsIndex.ts';
import type { Dependency, RawDependency } from './Dependency.ts';
import { resolveCrates } from './resolveCrates.ts';

const MULTIARCH = 'riscv64-linux-gnu';

/** The files in a riscv64 Debian system that would satisfy a dependency. */
export function candidatePaths(dep: Pick<RawDependency, 'kind' | 'name'>): string[] {
  const n = dep.name;
  switch (dep.kind) {
    case 'pkg-config':
      return [
        `usr/lib/${MULTIARCH}/pkgconfig/${n}.pc`,
        `usr/share/pkgconfig/${n}.pc`,
        `usr/lib/pkgconfig/${n}.pc`,
      ];
    case 'header': {
      // Contents lists files and symlinks, never folders: a folder of headers that a package
      // links to another name (`cryptopp -> crypto++`) is found by the link
      const folder = n.includes('/') ? n.split('/')[0] : undefined;
      return [
        `usr/include/${n}`,
        `usr/include/${MULTIARCH}/${n}`,
        ...(folder && folder !== '.' && folder !== '..' ? [`usr/include/${folder}`] : []),
      ];
    }
    case 'library': {
      const base = n.startsWith('lib') ? n.slice(3) : n;
      // then a folder of its own, named as the library is (usr/lib/quickjs/libquickjs.a), which
      // the link finds once the port puts it on LIBRARY_PATH
      return [`usr/lib/${MULTIARCH}`, `usr/lib/${MULTIARCH}/${base}`, `usr/lib/${base}`].flatMap((dir) => [
        `${dir}/lib${base}.so`,
        `${dir}/lib${base}.a`,
      ]);
    }
    case 'cmake-package': {
      const lower = n.toLowerCase();
      return [`usr/lib/${MULTIARCH}/cmake`, 'usr/lib/cmake', 'usr/share/cmake'].flatMap((base) =>
        [n, lower].flatMap((dir) => [
          `${base}/${dir}/${n}Config.cmake`,
          `${base}/${dir}/${lower}-config.cmake`,
        ]),
      );
    }
    case 'program':
      return [`usr/bin/${n}`, `usr/sbin/${n}`];
    case 'r-package':
      // CRAN and Bioconductor packages (r-cran-*, r-bioc-*) and R's own (r-base-core)
      return [`usr/lib/R/site-library/${n}/DESCRIPTION`, `usr/lib/R/library/${n}/DESCRIPTION`];
    case 'go-module':
      // the index keeps Debian's Go folders, not their files (GOCODE_PREFIX)
      return [`${GOCODE_PREFIX}${n}/`];
    default:
      return [];
  }
}

/** The word a package providing the dependency is usually named after. */
function stemOf(dep: RawDependency): string {
  const first = dep.name.split('/')[0] ?? dep.name;
  return first
    .replace(/\.(h|hpp|hh)$/, '')
    .replace(/^lib/, '')
    .replace(/-?[\d.]+$/, '')
    .toLowerCase();
}

/**
 * Among packages providing the same file: development packages first (that is what builds
 * need), then the one named after the dependency (`libreadline-dev` before `libeditreadline-dev`).
 */
function rank(packages: string[], name: string): string[] {
  const named = (p: string) => Number(p.startsWith(`lib${name}`) || p.startsWith(name));
  return [...new Set(packages)].sort(
    (a, b) => Number(b.endsWith('-dev')) - Number(a.endsWith('-dev')) || named(b) - named(a),
  );
}

/**
 * Resolves dependencies to Debian package names: the riscv64 Contents index first (pkg-config
 * modules, headers, libraries, CMake config files, programs), the alias table last.
 * Duplicates (same kind and name) are merged: required if any occurrence is. Crates resolve by
 * version against Debian's cargo registry (resolveCrates).
 */
export function resolveDependencies(
  raw: readonly RawDependency[],
  contents: ContentsLookup | null,
): Dependency[] {
  const merged = new Map<string, RawDependency>();
  for (const dep of raw) {
    if (dep.kind === 'crate') continue;
    const key = `${dep.kind}\0${dep.name}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, { ...dep });
    else seen.required ||= dep.required;
  }
  const deps = [...merged.values()];
  const found = contents ? contents.lookup(deps.flatMap(candidatePaths)) : new Map<string, string[]>();
  const resolved = deps.map((dep): Dependency => {
    for (const path of candidatePaths(dep)) {
      const packages = found.get(path);
      if (packages)
        return {
          ...dep,
          debianPackages: rank(packages, stemOf(dep)),
          resolvedBy: 'contents' as const,
        };
    }
    // a module whose root holds only packages in subfolders (golang.org/x/sys): any folder under it
    const below =
      dep.kind === 'go-module'
        ? contents?.under?.(`${GOCODE_PREFIX}${dep.name}/`).values().next().value
        : undefined;
    if (below) return { ...dep, debianPackages: rank(below, stemOf(dep)), resolvedBy: 'contents' as const };
    const alias = DEBIAN_ALIASES[dep.kind]?.[dep.name];
    if (alias) return { ...dep, debianPackages: alias, resolvedBy: 'alias' as const };
    return { ...dep, debianPackages: [], resolvedBy: null };
  });
  return [
    ...resolved,
    ...resolveCrates(
      raw.filter((d) => d.kind === 'crate'),
      contents,
    ),
  ];
}
