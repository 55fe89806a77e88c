import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { guardDiffInTree } from '../llm/index.ts';
import { packagingPatch } from './packagingPatch.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function packaging(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-packaging-'));
  dirs.push(dir);
  const put = (rel: string, data: string | Buffer) => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), data);
  };
  put('control', 'Source: demo\nBuild-Depends: debhelper-compat (= 13), libfoo-dev\n');
  put('rules', '#!/usr/bin/make -f\n%:\n\tdh $@\n');
  chmodSync(join(dir, 'rules'), 0o755);
  put('source/format', '3.0 (quilt)'); // no newline at the end
  put('patches/series', 'fix.patch\n');
  put('patches/fix.patch', '--- a/x\n+++ b/x\n');
  put('icon.png', Buffer.from([0x89, 0x50, 0x00, 0x01]));
  put('empty', '');
  symlinkSync('/etc/passwd', join(dir, 'copyright'));
  return dir;
}

describe('packagingPatch', () => {
  it('adds debian/ to a tree with git apply: modes kept, quilt patches, links and binaries left out', async () => {
    const dir = packaging();
    const patch = packagingPatch(dir);
    expect(patch.files).toEqual(['control', 'rules', 'source/format']);
    expect(patch.leftOut).toEqual([
      { path: 'copyright', reason: 'a symbolic link' },
      { path: 'empty', reason: 'empty' },
      { path: 'icon.png', reason: 'binary' },
    ]);
    expect(patch.diff).not.toContain('/etc/passwd');
    expect(patch.diff).not.toContain('patches/');

    const tree = mkdtempSync(join(tmpdir(), 'rvport-tree-'));
    dirs.push(tree);
    writeFileSync(join(tree, 'main.c'), 'int main(void) { return 0; }\n');
    // the port's patch guard accepts it, and git applies it as a freshSource copy gets it
    const verdict = await guardDiffInTree(patch.diff, tree);
    expect(verdict.allowed).toBe(true);
    execFileSync('git', ['--git-dir=/dev/null', 'apply', '-'], { cwd: tree, input: patch.diff });
    expect(readFileSync(join(tree, 'debian/rules'), 'utf8')).toBe('#!/usr/bin/make -f\n%:\n\tdh $@\n');
    expect(statSync(join(tree, 'debian/rules')).mode & 0o111).not.toBe(0);
    expect(statSync(join(tree, 'debian/control')).mode & 0o111).toBe(0);
    expect(readFileSync(join(tree, 'debian/source/format'), 'utf8')).toBe('3.0 (quilt)');
  });
});
