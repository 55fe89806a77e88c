import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
  writeSync,
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
    expect(() => copyRegularFile(tree, 'prog', join(out, 'big'), { maxBytes: 4 })).toThrow(
      /over the limit of 4/,
    );
    expect(readdirSync(out).sort()).toEqual(['libx.so', 'libx.so.1.0', 'prog']);
  });

  it('keeps holes: a sparse file stays small on disk, with its apparent size and content', () => {
    const sparse = join(base, 'sparse-tree');
    mkdirSync(sparse);
    const file = join(sparse, 'padded');
    writeFileSync(file, 'head');
    const fd = openSync(file, 'r+');
    writeSync(fd, 'middle', 300 * 1024 * 1024);
    closeSync(fd);
    truncateSync(file, 700 * 1024 * 1024);
    const copied = copyRegularFile(sparse, 'padded', join(base, 'padded-copy'));
    const st = statSync(join(base, 'padded-copy'));
    expect(st.size).toBe(700 * 1024 * 1024);
    expect(copied.bytes).toBe(700 * 1024 * 1024);
    expect(st.blocks * 512).toBeLessThan(8 * 1024 * 1024);
    const head = Buffer.alloc(6);
    const copy = openSync(join(base, 'padded-copy'), 'r');
    const readAt = (at: number, n: number) => {
      readSync(copy, head, 0, n, at);
      return head.subarray(0, n).toString();
    };
    expect(readAt(0, 4)).toBe('head');
    expect(readAt(300 * 1024 * 1024, 6)).toBe('middle');
    closeSync(copy);
    const hash = createHash('sha256');
    const chunk = Buffer.alloc(1 << 20);
    const again = openSync(file, 'r');
    for (let n = readSync(again, chunk); n > 0; n = readSync(again, chunk)) hash.update(chunk.subarray(0, n));
    closeSync(again);
    expect(copied.sha256).toBe(hash.digest('hex'));
    rmSync(join(base, 'padded-copy'));
  });

  it('refuses by apparent size, before writing anything', () => {
    const sparse = join(base, 'huge-tree');
    mkdirSync(sparse);
    writeFileSync(join(sparse, 'huge'), 'x');
    truncateSync(join(sparse, 'huge'), 3 * 1024 * 1024 * 1024);
    expect(() => copyRegularFile(sparse, 'huge', join(base, 'huge-copy'))).toThrow(
      /3221225472 bytes \(apparent size\), over the limit of 2147483648/,
    );
    expect(readdirSync(base)).not.toContain('huge-copy');
  });
});
