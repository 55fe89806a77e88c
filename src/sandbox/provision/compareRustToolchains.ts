import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstalledPackage } from '../dpkgStatus.ts';

/** The Rust packages whose x86_64 builds must be the very version a port installs for riscv64. */
export const RUST_PAIRS: readonly string[] = ['rustc', 'cargo', 'libstd-rust-dev'];

export interface RustToolchainComparison {
  match: boolean;
  details: string[];
  reason?: string;
}

/**
 * The version of each package in apt `Packages` index texts (the rootfs has no Rust installed: a
 * port installs it from these lists, so their version is the one it gets). The highest listed wins.
 */
export function indexVersions(texts: readonly string[], names: readonly string[]): Map<string, string> {
  const wanted = new Set(names);
  const versions = new Map<string, string>();
  for (const text of texts) {
    for (const stanza of text.split(/\n\n+/)) {
      const name = /^Package: *(\S+)/m.exec(stanza)?.[1];
      const version = /^Version: *(\S+)/m.exec(stanza)?.[1];
      if (!name || !version || !wanted.has(name)) continue;
      // one suite's index lists a package once; a second list (updates) carries the newer one, and is read last
      versions.set(name, version);
    }
  }
  return versions;
}

/**
 * Accelerated Cargo builds are only faithful when the x86_64 rustc and cargo are the same Debian
 * version as the riscv64 ones the port would run emulated (and whose std it links).
 */
export function compareRustToolchains(
  rootfsIndex: ReadonlyMap<string, string>,
  tools: readonly InstalledPackage[],
): RustToolchainComparison {
  const details: string[] = [];
  const problems: string[] = [];
  for (const name of RUST_PAIRS) {
    const riscv64 = rootfsIndex.get(name);
    const amd64 = tools.find((p) => p.name === name && p.architecture === 'amd64')?.version;
    if (!riscv64 || !amd64) {
      const missing = !riscv64
        ? `${name} in the rootfs's package lists`
        : `${name}:amd64 in the Rust tools tree`;
      problems.push(`${name}: no ${missing}`);
      details.push(`${name}: missing ${missing}`);
      continue;
    }
    details.push(`${name}: riscv64 ${riscv64}, x86_64 ${amd64}${riscv64 === amd64 ? '' : ' (differ)'}`);
    if (riscv64 !== amd64) problems.push(`${name} ${riscv64} for riscv64 but ${amd64} for x86_64`);
  }
  return problems.length === 0
    ? { match: true, details }
    : { match: false, details, reason: `Rust toolchain versions differ: ${problems.join('; ')}` };
}

/** The texts of an image tree's apt `Packages` lists. */
export async function readAptIndexes(tree: string): Promise<string[]> {
  const dir = join(tree, 'var/lib/apt/lists');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('_Packages'));
  return Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
}
