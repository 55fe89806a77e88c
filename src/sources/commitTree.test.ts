import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitTree } from './commitTree.ts';

const root = mkdtempSync(join(tmpdir(), 'rvport-commit-tree-'));
const git = (gitDir: string, ...args: string[]) =>
  execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8' });

describe('commitTree', () => {
  it('records every file as it is: modes, links, ignored and attribute-filtered files; .git left out', async () => {
    const tree = join(root, 'tree');
    mkdirSync(join(tree, 'sub', '.git'), { recursive: true });
    mkdirSync(join(tree, '.git'), { recursive: true });
    writeFileSync(join(tree, '.git', 'config'), '[core]\n\tfsmonitor = /bin/false\n');
    writeFileSync(join(tree, 'sub', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(tree, 'sub', 'file.txt'), 'a\r\nb\r\n');
    writeFileSync(join(tree, '.gitignore'), '*\n');
    writeFileSync(join(tree, '.gitattributes'), '* text eol=lf filter=lfs\n');
    writeFileSync(join(tree, 'run.sh'), '#!/bin/sh\n');
    chmodSync(join(tree, 'run.sh'), 0o755);
    writeFileSync(join(tree, 'name\nwith newline'), 'odd\n');
    symlinkSync('/etc/passwd', join(tree, 'link')); // recorded, never followed
    const gitDir = join(root, 'meta.git');
    const { commit, listing } = await commitTree(tree, gitDir, 'Import');
    expect(listing.gitEntries).toEqual(['.git', 'sub/.git']);
    expect(git(gitDir, 'rev-parse', 'HEAD').trim()).toBe(commit);
    const entries = git(gitDir, 'ls-tree', '-r', 'HEAD').trim().split('\n');
    expect(entries.map((l) => l.replace(/ [0-9a-f]{40}\t/, ' ')).sort()).toEqual(
      [
        '100644 blob .gitattributes',
        '100644 blob .gitignore',
        '120000 blob link',
        '100755 blob run.sh',
        '100644 blob sub/file.txt',
        '100644 blob "name\\nwith newline"',
      ].sort(),
    );
    expect(git(gitDir, 'cat-file', 'blob', 'HEAD:sub/file.txt')).toBe('a\r\nb\r\n'); // no eol change
    expect(git(gitDir, 'cat-file', 'blob', 'HEAD:link')).toBe('/etc/passwd');
  });

  it('refuses a tree holding a fifo', async () => {
    const tree = join(root, 'fifo');
    mkdirSync(tree);
    execFileSync('mkfifo', [join(tree, 'pipe')]);
    await expect(commitTree(tree, join(root, 'fifo.git'), 'x')).rejects.toMatchObject({
      code: 'unsafe-entry',
      message: expect.stringMatching(/pipe is neither a file, a folder nor a symbolic link/),
    });
  });
});
