import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashFileConfined } from './hashFileConfined.ts';

const base = mkdtempSync(join(tmpdir(), 'rvport-hash-'));
const tree = join(base, 'tree');
mkdirSync(tree);
writeFileSync(join(base, 'secret'), 'host secret');
writeFileSync(join(tree, 'file'), Buffer.alloc(3 * 1024 * 1024 + 7, 1));
symlinkSync('file', join(tree, 'alias'));
symlinkSync(join(base, 'secret'), join(tree, 'leak'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('hashFileConfined', () => {
  it('hashes in chunks, following links only inside the tree', () => {
    const sha256 = createHash('sha256')
      .update(Buffer.alloc(3 * 1024 * 1024 + 7, 1))
      .digest('hex');
    expect(hashFileConfined(tree, 'file', { maxBytes: 1 << 30 })).toEqual({
      path: 'file',
      size: 3 * 1024 * 1024 + 7,
      sha256,
    });
    expect(hashFileConfined(tree, 'alias', { maxBytes: 1 << 30 }).path).toBe('file');
    expect(() => hashFileConfined(tree, 'leak', { maxBytes: 1 << 30 })).toThrow(/outside the tree/);
    expect(() => hashFileConfined(tree, 'file', { maxBytes: 1024 })).toThrow(/larger than 1024 bytes/);
  });
});
