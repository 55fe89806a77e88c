import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The names apt in the sandbox can install: every `Package:` of the package lists the rootfs
 * image keeps (`var/lib/apt/lists/*_Packages`, riscv64 and `all`), and every name they
 * `Provides:` (virtual packages such as `libz-dev`). Null when the image has no lists: then
 * nothing can be checked and nothing is refused.
 */
export async function loadInstallablePackages(listsDir: string): Promise<ReadonlySet<string> | null> {
  let files: string[];
  try {
    files = (await readdir(listsDir)).filter((f) => f.endsWith('_Packages'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (files.length === 0) return null;
  const names = new Set<string>();
  for (const file of files) addNames(await readFile(join(listsDir, file), 'utf8'), names);
  return names;
}

/** Adds the package and provided names of one Packages file to `names`. */
export function addNames(packagesFile: string, names: Set<string>): void {
  for (const line of packagesFile.split('\n')) {
    if (line.startsWith('Package: ')) names.add(line.slice(9).trim());
    else if (line.startsWith('Provides: ')) {
      for (const item of line.slice(10).split(',')) {
        const name = item.trim().split(/[\s(]/)[0];
        if (name) names.add(name);
      }
    }
  }
}

/** The package lists inside a provisioned rootfs image folder. */
export function imageAptLists(imageDir: string): string {
  return join(imageDir, 'tree', 'var', 'lib', 'apt', 'lists');
}

/** The names among `packages` that are not installable (none when there is no index). */
export function uninstallable(
  packages: readonly string[],
  installable: ReadonlySet<string> | null,
): string[] {
  if (!installable) return [];
  return packages.filter((name) => !installable.has(name.replace(/:(riscv64|all|native)$/, '')));
}
