import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Real processes race to take over the same stale run locks (left by a process that died). With
// delete-and-create, two of them could both believe they hold a lock; exactly one may.
const contender = fileURLToPath(new URL('../../src/engine/stores/testing/lockContender.ts', import.meta.url));
const CONTENDERS = 3;
const ROUNDS = 40;
const GAP_MS = 25;

const dir = mkdtempSync(join(tmpdir(), 'rvport-lock-race-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pid no process has: that of a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

describe('the run lock', () => {
  it('lets exactly one of several racing processes take over a stale lock', async () => {
    const dead = await deadPid();
    for (let r = 0; r < ROUNDS; r++) writeFileSync(join(dir, `w${r}.lock`), String(dead));
    // far enough ahead for every contender to have loaded before the first round
    const startAt = Date.now() + 8_000;
    const runs = Array.from({ length: CONTENDERS }, () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', contender, dir, String(ROUNDS), String(startAt), String(GAP_MS)],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      return new Promise<{ code: number | null; stderr: string }>((resolve) =>
        child.on('close', (code) => resolve({ code, stderr })),
      );
    });
    for (const run of await Promise.all(runs)) expect(run.code, run.stderr).toBe(0);
    const won = readdirSync(dir).filter((f) => f.startsWith('won-'));
    const winners = Array.from(
      { length: ROUNDS },
      (_, r) => won.filter((f) => f.startsWith(`won-${r}-`)).length,
    );
    expect(winners).toEqual(Array.from({ length: ROUNDS }, () => 1));
  }, 60_000);
});
