import { describe, expect, it } from 'vitest';
import { compareToolchains, sourceVersionOfCross } from './compareToolchains.ts';
import { parseDpkgStatus } from './dpkgStatus.ts';

const stanza = (name: string, arch: string, version: string, status = 'install ok installed') =>
  `Package: ${name}\nStatus: ${status}\nArchitecture: ${arch}\nVersion: ${version}\nDescription: x\n continued\n`;

const rootfs = parseDpkgStatus(
  [
    stanza('gcc-14-riscv64-linux-gnu', 'riscv64', '14.2.0-19'),
    stanza('g++-14-riscv64-linux-gnu', 'riscv64', '14.2.0-19'),
    stanza('binutils-riscv64-linux-gnu', 'riscv64', '2.44-3'),
    stanza('removed-pkg', 'riscv64', '1.0', 'deinstall ok config-files'),
  ].join('\n'),
);
const cross = (gcc: string) =>
  parseDpkgStatus(
    [
      stanza('gcc-14-riscv64-linux-gnu', 'amd64', gcc),
      stanza('g++-14-riscv64-linux-gnu', 'amd64', gcc),
      stanza('binutils-riscv64-linux-gnu', 'amd64', '2.44-3'),
    ].join('\n'),
  );

describe('compareToolchains', () => {
  it('parses only installed packages', () => {
    expect(rootfs.map((p) => p.name)).not.toContain('removed-pkg');
    expect(rootfs[0]).toEqual({
      name: 'gcc-14-riscv64-linux-gnu',
      architecture: 'riscv64',
      version: '14.2.0-19',
    });
  });

  it('accepts the cross build of the same source version', () => {
    expect(sourceVersionOfCross('14.2.0-19cross1')).toBe('14.2.0-19');
    const result = compareToolchains(rootfs, cross('14.2.0-19cross1'));
    expect(result.match).toBe(true);
    expect(result.details[0]).toBe('GCC: rootfs 14.2.0-19, cross 14.2.0-19cross1');
  });

  it('refuses a different Debian revision, with the reason', () => {
    const result = compareToolchains(rootfs, cross('14.2.0-20cross1'));
    expect(result.match).toBe(false);
    expect(result.reason).toMatch(/GCC 14.2.0-19 in the rootfs but 14.2.0-20cross1 cross/);
  });

  it('refuses when a side is missing', () => {
    expect(compareToolchains(rootfs, []).reason).toMatch(/not installed/);
  });
});
