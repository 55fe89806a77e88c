import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileConfined, readHeadConfined, readTextConfined } from './readFileConfined.ts';

const base = mkdtempSync(join(tmpdir(), 'rvport-confined-read-'));
const canary = join(base, 'canary-secret');
const tree = join(base, 'tree');
writeFileSync(canary, 'CANARY-SECRET-CONTENT\n');
mkdirSync(join(tree, 'src'), { recursive: true });
writeFileSync(join(tree, 'src', 'x.c'), 'int x;\n');
writeFileSync(join(tree, 'big.bin'), Buffer.alloc(4096, 1));
symlinkSync(canary, join(tree, 'configure.ac'));
symlinkSync('x.c', join(tree, 'src', 'y.c'));
execFileSync('mkfifo', [join(tree, 'fifo')]);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('readFileConfined', () => {
  it('reads files and in-tree links', () => {
    expect(readFileConfined(tree, 'src/x.c').toString()).toBe('int x;\n');
    expect(readFileConfined(tree, 'src/y.c').toString()).toBe('int x;\n');
    expect(readHeadConfined(tree, 'src/x.c', 3).toString()).toBe('int');
    expect(readHeadConfined(tree, 'src/x.c', 100).toString()).toBe('int x;\n');
  });

  it('never returns the content of a host file behind a link', () => {
    const result = readTextConfined(tree, 'configure.ac');
    expect(result.text).toBeNull();
    expect(result).toMatchObject({ code: 'outside-tree' });
    expect(JSON.stringify(result)).not.toContain('CANARY-SECRET-CONTENT');
  });

  it('refuses a FIFO without blocking on it', () => {
    expect(readTextConfined(tree, 'fifo')).toMatchObject({ text: null, code: 'not-a-file' });
    expect(readTextConfined(tree, 'fifo').text === null && readTextConfined(tree, 'fifo')).toMatchObject({
      reason: expect.stringContaining('a FIFO'),
    });
  });

  it('refuses files over the size limit', () => {
    expect(readTextConfined(tree, 'big.bin', { maxBytes: 4095 })).toMatchObject({ code: 'too-large' });
    expect(readFileConfined(tree, 'big.bin', { maxBytes: 4096 }).length).toBe(4096);
  });

  it('reports a missing file as such', () => {
    expect(readTextConfined(tree, 'nope.c')).toMatchObject({ text: null, code: 'not-found' });
  });
});
