import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface InstalledPackage {
  name: string;
  architecture: string;
  version: string;
}

/** The installed packages listed in a dpkg status file (read on the host: no emulation needed). */
export function parseDpkgStatus(text: string): InstalledPackage[] {
  const packages: InstalledPackage[] = [];
  for (const stanza of text.split(/\n\n+/)) {
    const field = (name: string) => new RegExp(`^${name}: *(.*)$`, 'm').exec(stanza)?.[1]?.trim();
    const name = field('Package');
    const version = field('Version');
    const status = field('Status') ?? '';
    if (!name || !version || !status.endsWith(' installed')) continue;
    packages.push({ name, version, architecture: field('Architecture') ?? '' });
  }
  return packages;
}

export async function readInstalledPackages(tree: string): Promise<InstalledPackage[]> {
  return parseDpkgStatus(await readFile(join(tree, 'var/lib/dpkg/status'), 'utf8'));
}
