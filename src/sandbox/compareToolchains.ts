import type { InstalledPackage } from './dpkgStatus.ts';

/** Package pairs (rootfs native, tools cross) that must be built from the same source version. */
export const TOOLCHAIN_PAIRS: ReadonlyArray<{ what: string; native: string; cross: string }> = [
  { what: 'GCC', native: 'gcc-14-riscv64-linux-gnu', cross: 'gcc-14-riscv64-linux-gnu' },
  { what: 'G++', native: 'g++-14-riscv64-linux-gnu', cross: 'g++-14-riscv64-linux-gnu' },
  { what: 'binutils', native: 'binutils-riscv64-linux-gnu', cross: 'binutils-riscv64-linux-gnu' },
];

export interface ToolchainComparison {
  match: boolean;
  /** One line per pair: the two versions and whether they agree. */
  details: string[];
  /** Why accelerated mode is refused, when it is. */
  reason?: string;
}

/** Debian's cross packages append `crossN` to the source version they were built from. */
export function sourceVersionOfCross(version: string): string {
  return version.replace(/cross\d+$/, '');
}

/**
 * Accelerated mode is only faithful when the cross toolchain is the same upstream release with the
 * same Debian patches as the rootfs's native one.
 */
export function compareToolchains(
  rootfs: readonly InstalledPackage[],
  tools: readonly InstalledPackage[],
): ToolchainComparison {
  const details: string[] = [];
  const problems: string[] = [];
  for (const pair of TOOLCHAIN_PAIRS) {
    const native = rootfs.find((p) => p.name === pair.native && p.architecture === 'riscv64');
    const cross = tools.find((p) => p.name === pair.cross && p.architecture === 'amd64');
    if (!native || !cross) {
      const missing = !native
        ? `${pair.native}:riscv64 in the rootfs`
        : `${pair.cross}:amd64 in the tools tree`;
      problems.push(`${pair.what}: ${missing} is not installed`);
      details.push(`${pair.what}: missing ${missing}`);
      continue;
    }
    const same = sourceVersionOfCross(cross.version) === native.version;
    details.push(`${pair.what}: rootfs ${native.version}, cross ${cross.version}${same ? '' : ' (differ)'}`);
    if (!same) problems.push(`${pair.what} ${native.version} in the rootfs but ${cross.version} cross`);
  }
  return problems.length === 0
    ? { match: true, details }
    : { match: false, details, reason: `toolchain versions differ: ${problems.join('; ')}` };
}
