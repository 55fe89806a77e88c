import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/rvportCli.ts';

// Bad input through the real binary: a clear message and exit 1, never a stack trace.
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-bad-input-'));
  mkdirSync(join(work, 'folder'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('bad input', () => {
  it.each([
    [['batch', 'missing.txt'], /cannot read LIST \/\S*missing\.txt: no such file/],
    [['batch', 'folder'], /LIST \/\S*folder is a directory, not a file/],
    [['replay', 'folder'], /holds no state\.json/],
    [['target', 'add', 'notaurl'], /not an SSH target/],
  ])('rvport %j says what is wrong', { timeout: 60_000 }, async (args, message) => {
    const run = await runCli(args, { cwd: work, env: { RVPORT_HOME: join(work, 'home') } });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
