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
  return dep?.debianPackages[0] ?? null;
}
