import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkConfined } from './walkConfined.ts';

const base = mkdtempSync(join(tmpdir(), 'rvport-confined-walk-'));
const tree = join(base, 'tree');
mkdirSync(join(tree, 'a', 'b', 'c'), { recursive: true });
mkdirSync(join(tree, '.git'));
writeFileSync(join(tree, '.git', 'HEAD'), 'ref\n');
writeFileSync(join(tree, 'a', 'one'), '1');
writeFileSync(join(tree, 'a', 'b', 'two'), '22');
writeFileSync(join(tree, 'a', 'b', 'c', 'three'), '333');
symlinkSync('/', join(tree, 'dest'));
symlinkSync('a', join(tree, 'alias'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('walkConfined', () => {
  it('lists every entry, links as links, never entering one', () => {
    const { entries, truncated } = walkConfined(tree, { skipDir: (name) => name === '.git' });
    expect(truncated).toBe(false);
    expect(entries.map((e) => `${e.path}:${e.type}`)).toEqual([
      '.git:directory',
      'a:directory',
      'a/b:directory',
      'a/b/c:directory',
      'a/b/c/three:file',
      'a/b/two:file',
      'a/one:file',
      'alias:link',
      'dest:link',
    ]);
    expect(entries.find((e) => e.path === 'dest')?.target).toBe('/');
    expect(entries.some((e) => e.path.startsWith('dest/'))).toBe(false);
  });

  it('starts below the root, through an in-tree link, with paths from the root', () => {
    const { entries } = walkConfined(tree, { from: 'alias/b', maxDepth: 0 });
    expect(entries.map((e) => e.path)).toEqual(['a/b/c', 'a/b/two']);
  });

  it('stops at the entry limit and says so', () => {
    const { entries, truncated } = walkConfined(tree, { maxEntries: 3 });
    expect(entries).toHaveLength(3);
    expect(truncated).toBe(true);
  });

  it('refuses to start at a link that leads out of the tree', () => {
    expect(() => walkConfined(tree, { from: 'dest' })).toThrow(/leads outside the tree/);
    expect(() => walkConfined(join(tree, 'dest'))).toThrow(/is a symbolic link/);
  });
});
