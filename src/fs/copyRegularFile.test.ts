import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyRegularFile } from './copyRegularFile.ts';

const base = mkdtempSync(join(tmpdir(), 'rvport-confined-copy-'));
const canary = join(base, 'canary-secret');
const tree = join(base, 'tree');
const out = join(base, 'out');
writeFileSync(canary, 'CANARY-SECRET-CONTENT\n');
mkdirSync(join(tree, 'lib'), { recursive: true });
mkdirSync(out);
writeFileSync(join(tree, 'prog'), 'ELF-ish program');
chmodSync(join(tree, 'prog'), 0o6777); // setuid, setgid, world-writable
writeFileSync(join(tree, 'lib', 'libx.so.1.0'), 'library');
chmodSync(join(tree, 'lib', 'libx.so.1.0'), 0o1666); // sticky, not executable
symlinkSync('libx.so.1.0', join(tree, 'lib', 'libx.so'));
symlinkSync(canary, join(tree, 'lib', 'libevil.so'));
execFileSync('mkfifo', [join(tree, 'fifo')]);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('copyRegularFile', () => {
  it('writes a plain regular file without setuid, setgid or sticky bits', () => {
    const copied = copyRegularFile(tree, 'prog', join(out, 'prog'));
    const st = lstatSync(join(out, 'prog'));
    expect(st.isFile()).toBe(true);
    expect(st.mode & 0o7777).toBe(0o755);
    expect(copied).toMatchObject({ from: 'prog', mode: 0o755, bytes: 15 });
    copyRegularFile(tree, 'lib/libx.so.1.0', join(out, 'libx.so.1.0'));
    expect(lstatSync(join(out, 'libx.so.1.0')).mode & 0o7777).toBe(0o644);
  });

  it('copies what an in-tree link resolves to, as a regular file', () => {
    expect(copyRegularFile(tree, 'lib/libx.so', join(out, 'libx.so')).from).toBe('lib/libx.so.1.0');
    expect(lstatSync(join(out, 'libx.so')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(out, 'libx.so'), 'utf8')).toBe('library');
  });

  it('refuses a link to a host file and a FIFO, leaving nothing behind', () => {
    expect(() => copyRegularFile(tree, 'lib/libevil.so', join(out, 'libevil.so'))).toThrow(
      /outside the tree/,
    );
    expect(() => copyRegularFile(tree, 'fifo', join(out, 'fifo'))).toThrow(/a FIFO/);
    expect(() => copyRegularFile(tree, 'prog', join(out, 'big'), { maxBytes: 4 })).toThrow(/larger than/);
    expect(readdirSync(out).sort()).toEqual(['libx.so', 'libx.so.1.0', 'prog']);
  });
});
