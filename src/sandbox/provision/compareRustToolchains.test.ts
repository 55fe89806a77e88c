import { describe, expect, it } from 'vitest';
import { compareRustToolchains, indexVersions, RUST_PAIRS } from './compareRustToolchains.ts';

const V = '1.85.1+dfsg1-1+deb13u1';
const index = [
  `Package: rustc\nVersion: ${V}\nArchitecture: riscv64\n`,
  `Package: cargo\nVersion: ${V}\n\nPackage: libstd-rust-dev\nVersion: ${V}\n\nPackage: other\nVersion: 1\n`,
];
const tools = RUST_PAIRS.map((name) => ({ name, version: V, architecture: 'amd64' }));

describe('compareRustToolchains', () => {
  it('reads the versions a port would install from the rootfs lists', () => {
    expect(Object.fromEntries(indexVersions(index, RUST_PAIRS))).toEqual({
      rustc: V,
      cargo: V,
      'libstd-rust-dev': V,
    });
  });

  it('matches when every pair is the same version', () => {
    const result = compareRustToolchains(indexVersions(index, RUST_PAIRS), tools);
    expect(result.match).toBe(true);
    expect(result.details[0]).toBe(`rustc: riscv64 ${V}, x86_64 ${V}`);
  });

  it('refuses another version or a missing package, saying which', () => {
    const newer = tools.map((p) => (p.name === 'rustc' ? { ...p, version: '1.86.0-1' } : p));
    expect(compareRustToolchains(indexVersions(index, RUST_PAIRS), newer).reason).toMatch(
      /rustc 1\.85\.1\+dfsg1-1\+deb13u1 for riscv64 but 1\.86\.0-1 for x86_64/,
    );
    const amd64Only = tools.map((p) => ({ ...p, architecture: 'riscv64' }));
    expect(compareRustToolchains(indexVersions(index, RUST_PAIRS), amd64Only).reason).toMatch(
      /no cargo:amd64 in the Rust tools tree/,
    );
  });
});
