import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRustTargets } from './compareRustTargets.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A target folder with the given files; `rlib` entries become real ar archives of their members. */
function tree(files: Record<string, string>, rlibs: Record<string, Record<string, string>> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'rvport-rust-target-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  for (const [path, members] of Object.entries(rlibs)) {
    const staging = mkdtempSync(join(tmpdir(), 'rvport-rlib-'));
    dirs.push(staging);
    for (const [name, text] of Object.entries(members)) writeFileSync(join(staging, name), text);
    mkdirSync(dirname(join(root, path)), { recursive: true });
    execFileSync('ar', ['qcD', join(root, path), ...Object.keys(members)], { cwd: staging });
  }
  return root;
}

const program = { 'release/point': 'ELF riscv64 program', 'release/point.d': '/build/src/main.rs:' };

describe('compareRustTargets', () => {
  it('finds two builds identical when only bookkeeping and crate metadata differ', () => {
    const a = tree(
      { ...program, 'release/.fingerprint/x/bin-point': 'aa', 'release/deps/libx.rmeta': 'meta 1' },
      { 'release/deps/libx.rlib': { 'x.o': 'code', 'lib.rmeta': 'meta 1' } },
    );
    const b = tree(
      { ...program, 'release/.fingerprint/x/bin-point': 'bb', 'release/deps/libx.rmeta': 'meta 2' },
      { 'release/deps/libx.rlib': { 'x.o': 'code', 'lib.rmeta': 'meta 2' } },
    );
    const result = compareRustTargets(a, b);
    expect(result).toMatchObject({ identical: true, differences: [], files: 4 });
    expect(result.metadataDiffering.sort()).toEqual(['release/deps/libx.rlib', 'release/deps/libx.rmeta']);
  });

  it('counts a different program, object member, build-script output or a missing file', () => {
    const a = tree(
      { ...program, 'release/build/x-1/out/gen.rs': 'const A: u8 = 1;', 'release/extra': 'e' },
      { 'release/deps/libx.rlib': { 'x.o': 'code', 'lib.rmeta': 'm' } },
    );
    const b = tree(
      { ...program, 'release/point': 'ELF other', 'release/build/x-1/out/gen.rs': 'const A: u8 = 2;' },
      { 'release/deps/libx.rlib': { 'x.o': 'other code', 'lib.rmeta': 'm' } },
    );
    const result = compareRustTargets(a, b);
    expect(result.identical).toBe(false);
    expect(result.differences).toEqual([
      'release/extra: only in the emulated build',
      'release/build/x-1/out/gen.rs: bytes differ',
      'release/deps/libx.rlib: member x.o differs',
      'release/point: bytes differ',
    ]);
  });

  it('does not follow a link a build left in its tree', () => {
    const canary = tree({ secret: 'host file' });
    const a = tree(program);
    const b = tree(program);
    symlinkSync(join(canary, 'secret'), join(a, 'release', 'leak'));
    symlinkSync(join(canary, 'secret'), join(b, 'release', 'leak'));
    const result = compareRustTargets(a, b);
    expect(result).toMatchObject({ identical: true, files: 2 });
  });
});
