import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyPaths } from './verifyPaths.ts';

const fixtures = join(import.meta.dirname, 'fixtures');
const fx = (name: string) => join(fixtures, name);

function folderWith(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-verify-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

describe('verifyPaths', () => {
  it('verifies riscv64 executables, shared objects, static binaries and archives', async () => {
    const report = await verifyPaths([
      fx('riscv64-exe'),
      fx('riscv64-lib.so'),
      fx('riscv64-static'),
      fx('riscv64-lib.a'),
    ]);
    expect(report.verdict).toBe('verified');
    expect(report.files.map((f) => f.machine)).toEqual(['riscv64', 'riscv64', 'riscv64', 'riscv64']);
    const archive = report.files[3];
    expect(archive?.type).toBe('archive');
    expect(archive?.members?.map((m) => m.path)).toEqual([
      `${fx('riscv64-lib.a')}(lib.o)`,
      `${fx('riscv64-lib.a')}(a_member_with_a_long_name.o)`,
    ]);
    expect(report.riscv64).toHaveLength(5);
  });

  it.each(['x86_64.o', 'aarch64.o', 'i386.o', 'x86_64-exe'])(
    'rejects %s with the machine in the reason',
    async (name) => {
      const report = await verifyPaths([fx('riscv64-exe'), fx(name)]);
      expect(report.verdict).toBe('not_verified');
      expect(report.reason).toContain(fx(name));
      expect(report.reason).toMatch(/x86_64|aarch64|i386/);
    },
  );

  it('rejects an archive with a member of another machine', async () => {
    const report = await verifyPaths([fx('mixed.a')]);
    expect(report.verdict).toBe('not_verified');
    expect(report.foreign).toEqual([`${fx('mixed.a')}(x86_64.o)`]);
    expect(report.files[0]?.machine).toBe('other');
  });

  it('gives a verdict, not a crash, for truncated, garbage, missing and empty inputs', async () => {
    const exe = readFileSync(fx('riscv64-exe'));
    const dir = folderWith({ truncated: exe.subarray(0, 90), garbage: 'not a binary\n', empty: '' });
    for (const path of [
      join(dir, 'truncated'),
      join(dir, 'garbage'),
      join(dir, 'empty'),
      join(dir, 'missing'),
    ]) {
      const report = await verifyPaths([path]);
      expect(report.verdict).toBe('not_verified');
      expect(report.reason).toContain(path);
    }
    expect((await verifyPaths([join(dir, 'truncated')])).reason).toMatch(/truncated/);
    expect((await verifyPaths([join(dir, 'missing')])).reason).toMatch(/no such file/);
  });

  it('walks folders, skipping non-objects and .git, and never decides by file name', async () => {
    const dir = folderWith({ 'README.md': '# hi\n', 'src/main.c': 'int main(){}\n', '.git/objects/x86': '' });
    copyFileSync(fx('riscv64-exe'), join(dir, 'src', 'hello.exe'));
    copyFileSync(fx('x86_64.o'), join(dir, '.git', 'objects', 'x86'));
    copyFileSync(fx('riscv64-lib.so'), join(dir, 'renamed.txt'));
    const report = await verifyPaths([dir]);
    expect(report.verdict).toBe('verified');
    expect(report.files.map((f) => f.path)).toEqual([
      join(dir, 'renamed.txt'),
      join(dir, 'src', 'hello.exe'),
    ]);
    expect(report.skipped).toBe(2);

    copyFileSync(fx('aarch64.o'), join(dir, 'src', 'stray.o'));
    expect((await verifyPaths([dir])).verdict).toBe('not_verified');
  });

  it('does not verify a folder with no riscv64 object', async () => {
    const report = await verifyPaths([folderWith({ 'a.txt': 'x' })]);
    expect(report).toMatchObject({ verdict: 'not_verified', reason: 'no ELF file or ar archive found' });
  });

  it('counts the links of a walked folder and follows none, to a folder or a file', async () => {
    const dir = folderWith({ 'README.md': 'x' });
    const host = folderWith({});
    copyFileSync(fx('x86_64-exe'), join(host, 'host-program'));
    copyFileSync(fx('riscv64-exe'), join(dir, 'hello'));
    symlinkSync(host, join(dir, 'hostdir'));
    symlinkSync(join(host, 'host-program'), join(dir, 'linked'));
    const report = await verifyPaths([dir]);
    expect(report.verdict).toBe('verified');
    expect(report.files.map((f) => f.path)).toEqual([join(dir, 'hello')]);
    expect(report.links).toBe(2);
  });
});
