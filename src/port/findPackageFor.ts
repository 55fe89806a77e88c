import type { ContentsLookup } from '../analysis/dependencies/ContentsIndex.ts';
import { resolveDependencies } from '../analysis/dependencies/resolveDependencies.ts';

/**
 * The Debian package (riscv64) that provides a header, pkg-config module, library, command or
 * CMake package.
 */
export function findPackageFor(
  contents: ContentsLookup | null,
  kind: 'header' | 'pkgconfig' | 'library' | 'command' | 'cmake-package',
  name: string,
): string | null {
  const depKind = kind === 'pkgconfig' ? 'pkg-config' : kind === 'command' ? 'program' : kind;
  const [dep] = resolveDependencies([{ kind: depKind, name, file: '', line: 0, required: true }], contents);
  return dep?.debianPackages[0] ?? (kind === 'header' ? headerInSubfolder(contents, name) : null);
}

/** Folders of usr/include a header may sit below, at most, for the build to add with -I. */
const MAX_EXTRA_FOLDERS = 2;

/**
 * A header named with its folder (`Foundation/Foundation.h`) that a package keeps one or two
 * folders deeper than usr/include (`usr/include/GNUstep/Foundation/…`, `usr/include/qt6/QtCore/…`):
 * the build system adds that folder with -I once the package is installed (gnustep-config,
 * pkg-config). A bare name (`config.h`) never resolves this way: too many packages carry one.
 * The package must be the only one with such a path, or the development package among them.
 */
function headerInSubfolder(contents: ContentsLookup | null, name: string): string | null {
  if (!name.includes('/') || name.startsWith('/') || name.split('/').includes('..')) return null;
  const found = contents?.endingWith?.(name);
  if (!found) return null;
  const packages = new Set<string>();
  for (const [path, owners] of found) {
    const extra = path.slice('usr/include/'.length, -name.length - 1).split('/');
    if (!path.startsWith('usr/include/') || extra.length > MAX_EXTRA_FOLDERS) continue;
    for (const owner of owners) packages.add(owner);
  }
  const dev = [...packages].filter((p) => p.endsWith('-dev'));
  if (packages.size === 1) return [...packages][0] ?? null;
  return dev.length === 1 ? (dev[0] ?? null) : null;
}
