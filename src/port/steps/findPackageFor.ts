import type { ContentsLookup } from '../../analysis/index.ts';
import { resolveDependencies } from '../../analysis/index.ts';

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
  if (dep?.debianPackages[0]) return dep.debianPackages[0];
  if (kind !== 'header') return null;
  return name.includes('/') ? headerInSubfolder(contents, name) : headerInOwnFolder(contents, name);
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
  if (name.startsWith('/') || name.split('/').includes('..')) return null;
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

/** A folder name without its version (`lua5.4`, `SDL2`, `python3.13`), lower case. */
const stem = (name: string) => name.toLowerCase().replace(/[\d.]+$/, '');

/**
 * A bare header (`quickjs-libc.h`) that a library keeps in a folder of its own below
 * usr/include, named as the header is (`usr/include/quickjs/quickjs-libc.h`, `lua5.4/lua.h`):
 * the build finds it once that folder is on the include path (pkg-config's -I, or the port's
 * CPATH). Another package's copy in a folder named otherwise (a bundled `giac/quickjs-libc.h`)
 * does not count, and of folders so named there must be one package (`SDL/SDL.h` and
 * `SDL2/SDL.h` are two libraries: nothing is chosen).
 */
function headerInOwnFolder(contents: ContentsLookup | null, name: string): string | null {
  if (!/^[\w+.-]+$/.test(name)) return null;
  const header = stem(name.replace(/\.[a-z]+$/i, ''));
  const packages = new Set<string>();
  for (const [path, owners] of contents?.endingWith?.(name) ?? []) {
    const folder = path.slice('usr/include/'.length, -name.length - 1);
    if (!path.startsWith('usr/include/') || folder.includes('/')) continue;
    const own = stem(folder);
    if (own.length < 3 || !(header.startsWith(own) || own.startsWith(header))) continue;
    for (const owner of owners) packages.add(owner);
  }
  return packages.size === 1 ? ([...packages][0] ?? null) : null;
}
