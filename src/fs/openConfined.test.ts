import { closeSync, mkdirSync, mkdtempSync, readSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isConfinedPathError } from './ConfinedPathError.ts';
import { existsConfined, MAX_LINKS, openConfined, statConfined } from './openConfined.ts';

const base = mkdtempSync(join(tmpdir(), 'rvport-confined-'));
const canary = join(base, 'canary-secret');
const tree = join(base, 'tree');
writeFileSync(canary, 'CANARY-SECRET-CONTENT\n');
mkdirSync(join(tree, 'src', 'deep'), { recursive: true });
writeFileSync(join(tree, 'README.md'), 'readme\n');
writeFileSync(join(tree, 'src', 'deep', 'x.c'), 'int x;\n');
symlinkSync('README.md', join(tree, 'README'));
symlinkSync('../README.md', join(tree, 'src', 'readme-up'));
symlinkSync('deep', join(tree, 'src', 'alias'));
symlinkSync(canary, join(tree, 'configure.ac'));
symlinkSync('../canary-secret', join(tree, 'relative-out'));
symlinkSync('/', join(tree, 'dest'));
symlinkSync('src/up', join(tree, 'chain'));
symlinkSync('../..', join(tree, 'src', 'up'));
symlinkSync('loop-b', join(tree, 'loop-a'));
symlinkSync('loop-a', join(tree, 'loop-b'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function read(rel: string): string {
  const { fd, stats } = openConfined(tree, rel);
  try {
    const buffer = Buffer.alloc(stats.size);
    readSync(fd, buffer, 0, stats.size, 0);
    return buffer.toString();
  } finally {
    closeSync(fd);
  }
}

function refusal(action: () => unknown): { code: string; message: string } {
  try {
    action();
  } catch (error) {
    if (isConfinedPathError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('not refused');
}

describe('openConfined', () => {
  it('opens files of the tree and follows links that stay inside it', () => {
    expect(read('README.md')).toBe('readme\n');
    expect(read('README')).toBe('readme\n');
    expect(read('src/readme-up')).toBe('readme\n');
    expect(read('src/alias/x.c')).toBe('int x;\n');
    expect(statConfined(tree, 'src/alias/x.c').path).toBe('src/deep/x.c');
    expect(statConfined(tree, 'src/deep/../../README').path).toBe('README.md');
  });

  it('refuses a link to a host file, naming the link', () => {
    const r = refusal(() => openConfined(tree, 'configure.ac'));
    expect(r.code).toBe('outside-tree');
    expect(r.message).toContain(`configure.ac -> ${canary}`);
    expect(refusal(() => openConfined(tree, 'relative-out')).code).toBe('outside-tree');
  });

  it('does not walk into the host root through a folder link', () => {
    expect(refusal(() => openConfined(tree, 'dest/etc/passwd')).code).toBe('outside-tree');
    expect(refusal(() => openConfined(tree, 'dest', { directory: true })).code).toBe('outside-tree');
  });

  it('refuses a chain of links that leaves through ..', () => {
    const r = refusal(() => openConfined(tree, 'chain/canary-secret'));
    expect(r.code).toBe('outside-tree');
    expect(r.message).toContain('src/up -> ../..');
    expect(refusal(() => openConfined(tree, '../canary-secret')).code).toBe('outside-tree');
    expect(refusal(() => openConfined(tree, 'src/../../canary-secret')).code).toBe('outside-tree');
  });

  it('stops on link loops and refuses absolute paths', () => {
    expect(refusal(() => openConfined(tree, 'loop-a')).code).toBe('link-loop');
    expect(refusal(() => openConfined(tree, canary)).code).toBe('invalid-path');
    expect(MAX_LINKS).toBe(40);
  });

  it('refuses a root that is itself a link', () => {
    expect(refusal(() => openConfined(join(tree, 'dest'), 'etc/passwd')).code).toBe('outside-tree');
  });

  it('refuses folders, FIFOs and missing files where a file is needed', () => {
    expect(refusal(() => openConfined(tree, 'src')).code).toBe('not-a-file');
    expect(refusal(() => openConfined(tree, 'missing.c')).code).toBe('not-found');
    expect(refusal(() => openConfined(tree, 'README.md/x')).code).toBe('not-a-directory');
  });

  it('answers existence inside the tree only', () => {
    expect(existsConfined(tree, 'README')).toBe(true);
    expect(existsConfined(tree, 'configure.ac')).toBe(false);
    expect(existsConfined(tree, 'src/alias', { directory: true })).toBe(true);
    expect(existsConfined(tree, 'dest', { directory: true })).toBe(false);
  });
});
