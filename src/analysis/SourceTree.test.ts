import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SourceTree } from './SourceTree.ts';

const base = mkdtempSync(join(tmpdir(), 'rvport-sourcetree-'));
const tree = join(base, 'tree');
writeFileSync(join(base, 'secret'), 'AC_INIT([host-secret])\n');
mkdirSync(join(tree, 'src'), { recursive: true });
mkdirSync(join(tree, '.git'));
writeFileSync(join(tree, '.git', 'config'), '[core]\n');
writeFileSync(join(tree, 'README.md'), 'hello\n');
writeFileSync(join(tree, 'src', 'a.c'), 'int a;\n');
symlinkSync('README.md', join(tree, 'README'));
symlinkSync('../secret', join(tree, 'configure.ac'));
symlinkSync('/', join(tree, 'root'));
symlinkSync('src', join(tree, 'src-alias'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('SourceTree.fromDisk', () => {
  const t = SourceTree.fromDisk(tree);

  it('lists files and in-tree file links, not .git, not folder links', () => {
    expect(t.files).toEqual(['README', 'README.md', 'src/a.c']);
    expect(t.read('README')).toBe('hello\n');
  });

  it('leaves out links that lead out of the tree and says why', () => {
    expect(t.refusedLinks.map((l) => [l.path, l.target])).toEqual([
      ['configure.ac', '../secret'],
      ['root', '/'],
    ]);
    expect(t.refusedLinks[0]?.reason).toMatch(/leads outside the tree/);
  });

  it('never reads through a link out of the tree, even for a path it was not given', () => {
    expect(t.read('configure.ac')).toBeNull();
    expect(t.read('root/etc/passwd')).toBeNull();
    expect(t.read('../secret')).toBeNull();
    expect(t.read('src-alias/a.c')).toBe('int a;\n');
  });

  it('is empty for a root that is a link', () => {
    expect(SourceTree.fromDisk(join(tree, 'root')).files).toEqual([]);
  });
});
