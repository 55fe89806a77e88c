import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
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
import { copyOutTree, MAX_COPY_OUT_BYTES } from './copyOutTree.ts';

const base = mkdtempSync(join(tmpdir(), 'rvport-copy-out-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('copyOutTree', () => {
  it('keeps holes and counts the apparent size of what it copied', async () => {
    const from = join(base, 'staged');
    mkdirSync(join(from, 'lib'), { recursive: true });
    writeFileSync(join(from, 'lib', 'small'), 'small');
    const fd = openSync(join(from, 'padded'), 'w');
    writeSync(fd, 'data', 0);
    writeSync(fd, 'tail', 200 * 1024 * 1024);
    closeSync(fd);
    truncateSync(join(from, 'padded'), 512 * 1024 * 1024);
    symlinkSync('/etc/passwd', join(from, 'link'));
    const report = await copyOutTree(from, join(base, 'out'));
    expect(report).toMatchObject({ files: 3, skipped: [], bytes: 512 * 1024 * 1024 + 5 });
    const copy = statSync(join(base, 'out', 'padded'));
    expect(copy.size).toBe(512 * 1024 * 1024);
    expect(copy.blocks * 512).toBeLessThan(8 * 1024 * 1024);
    const tail = Buffer.alloc(4);
    const copied = openSync(join(base, 'out', 'padded'), 'r');
    readSync(copied, tail, 0, 4, 200 * 1024 * 1024);
    closeSync(copied);
    expect(tail.toString()).toBe('tail');
    expect(readFileSync(join(base, 'out', 'lib', 'small'), 'utf8')).toBe('small');
  });

  it('refuses a tree over its limit by apparent size, holes counted, before copying the file', async () => {
    const from = join(base, 'huge');
    mkdirSync(from);
    writeFileSync(join(from, 'sparse'), 'x');
    truncateSync(join(from, 'sparse'), MAX_COPY_OUT_BYTES + 1);
    await expect(copyOutTree(from, join(base, 'huge-out'))).rejects.toThrow(
      /sparse: the copy out passes its limit of 2147483648 bytes \(apparent size, holes counted\)/,
    );
    await expect(copyOutTree(from, join(base, 'huge-out-2'), { maxBytes: 0 })).rejects.toThrow(
      /limit of 0 bytes/,
    );
  });
});
