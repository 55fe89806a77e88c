import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KILL_SCRIPT, RUN_SCRIPT } from './remoteWorkspace.ts';

const run = promisify(execFile);

/** The remote scripts are POSIX sh: run here with the host's sh, as a remote would run them. */
function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'rvport-remote-'));
  for (const part of ['run', 'build']) mkdirSync(join(root, part));
  return root;
}

const runScript = (root: string, id: string, limit: number, ...argv: string[]) =>
  run('/bin/sh', [
    '-c',
    RUN_SCRIPT,
    'rvport-run',
    root,
    id,
    join(root, 'build'),
    String(limit),
    'PATH=/usr/bin:/bin',
    ...argv,
  ]).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

describe('the remote run script', () => {
  it('runs the argv in a clean environment and passes its exit status', async () => {
    const root = workspace();
    const result = await runScript(root, 'a1', 0, '/bin/sh', '-c', 'env; pwd; exit 4');
    expect(result.code).toBe(4);
    // only what was given (and the PWD a shell sets itself)
    expect(result.stdout.split('\n').filter((l) => !l.startsWith('PWD='))).toEqual([
      'PATH=/usr/bin:/bin',
      join(root, 'build'),
      '',
    ]);
    expect(readdirSync(join(root, 'run'))).toEqual([]); // pid file removed
  });

  it('kills the command itself at its time limit, with what it started', { timeout: 20_000 }, async () => {
    const root = workspace();
    const started = Date.now();
    const result = await runScript(
      root,
      'a2',
      1,
      '/bin/sh',
      '-c',
      `(sleep 4; touch ${root}/late) & sleep 4; touch ${root}/late2`,
    );
    expect(result.code).toBe(137);
    expect(Date.now() - started).toBeLessThan(3500);
    await new Promise((r) => setTimeout(r, 4000));
    expect(existsSync(join(root, 'late'))).toBe(false);
    expect(existsSync(join(root, 'late2'))).toBe(false);
  });

  it('does not start a command cancelled before it began', async () => {
    const root = workspace();
    await run('/bin/sh', ['-c', KILL_SCRIPT, 'rvport-kill', root, 'a3']);
    const result = await runScript(root, 'a3', 0, '/bin/sh', '-c', `touch ${root}/ran`);
    expect(result.code).toBe(137);
    expect(existsSync(join(root, 'ran'))).toBe(false);
  });

  it('is killed with its process group by the kill script', { timeout: 20_000 }, async () => {
    const root = workspace();
    const pending = runScript(root, 'a4', 0, '/bin/sh', '-c', `(sleep 3; touch ${root}/late) & sleep 3`);
    await new Promise((r) => setTimeout(r, 800));
    await run('/bin/sh', ['-c', KILL_SCRIPT, 'rvport-kill', root, 'a4']);
    expect((await pending).code).toBe(137);
    await new Promise((r) => setTimeout(r, 3500));
    expect(existsSync(join(root, 'late'))).toBe(false);
  });
});
