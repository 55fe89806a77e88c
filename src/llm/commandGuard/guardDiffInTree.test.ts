import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardDiffInTree } from './guardDiffInTree.ts';

describe('guardDiffInTree', () => {
  it('refuses a path through a symbolic link in the tree, and accepts the same diff without it', async () => {
    const tree = await mkdtemp(join(tmpdir(), 'rvport-diff-tree-'));
    try {
      await mkdir(join(tree, 'src'));
      await writeFile(join(tree, 'src', 'x.c'), 'a\n');
      const diff = '--- a/lib/x.c\n+++ b/lib/x.c\n@@ -1 +1 @@\n-a\n+b\n';
      expect(await guardDiffInTree(diff, tree)).toMatchObject({ allowed: true });
      await symlink('/native/usr/lib', join(tree, 'lib'));
      expect(await guardDiffInTree(diff, tree)).toMatchObject({
        allowed: false,
        reason: expect.stringMatching(/symbolic link.*lib/),
      });
      await symlink('x.c', join(tree, 'src', 'link.c'));
      const viaFile = '--- src/link.c\n+++ src/link.c\n@@ -1 +1 @@\n-a\n+b\n';
      expect(await guardDiffInTree(viaFile, tree)).toMatchObject({ allowed: false });
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });
});
