import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const vitestBin = resolve('node_modules/.bin/vitest');
const reporter = resolve('test/reporters/plainSummary.ts');
const made: string[] = [];

/** Runs vitest, as a real process, on a folder of test files, with the plain reporter only. */
function runVitest(files: Record<string, string>): { status: number | null; lines: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-reporter-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const result = spawnSync(
    vitestBin,
    ['run', '--root', dir, '--globals', '--reporter', reporter, '--reporter', 'default'],
    { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 },
  );
  const lines = result.stdout.split('\n').filter((line) => line.trim() !== '');
  return { status: result.status, lines };
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the plain summary reporter', () => {
  it('ends a failing run with the counts of what passed, failed and was skipped', () => {
    const run = runVitest({
      'a.test.js': "test('one', () => {}); test('two', () => {}); test.skip('later', () => {});",
      'b.test.js': "test('breaks', () => { throw new Error('no'); });",
      'c.test.js': "throw new Error('this file does not load');",
    });
    expect(run.status).not.toBe(0);
    expect(run.lines).toContain('tests: 2 passed, 2 failed, 1 skipped');
  }, 90_000);

  it('says 0 failed for a run that passed', () => {
    const run = runVitest({ 'a.test.js': "test('one', () => {});" });
    expect(run.status).toBe(0);
    expect(run.lines).toContain('tests: 1 passed, 0 failed');
  }, 90_000);
});
