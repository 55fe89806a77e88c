import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../process/isProcessAlive.ts';
import { childPortRunner } from './childPortRunner.ts';
import type { RunOutcome } from './PortRunner.ts';
import { validEntry } from './testing/batchFixtures.ts';

const fake = fileURLToPath(new URL('./testing/fakePort.mjs', import.meta.url));
const helper = fileURLToPath(new URL('./testing/runnerInChild.ts', import.meta.url));

function setup(options: { timeoutMs?: number; interruptGraceMs?: number } = {}) {
  const out = mkdtempSync(join(tmpdir(), 'rvport-child-runner-'));
  const runner = childPortRunner({
    out,
    portFlags: ['--max-attempts', '2'],
    command: [process.execPath, fake],
    ...options,
  });
  return { out, runner };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`never happened: ${what}`);
}

const never = new AbortController().signal;

describe('childPortRunner', () => {
  it('runs `port SOURCE --json --out OUT` with the flags, and reads its result', async () => {
    const { out, runner } = setup();
    const started: string[] = [];
    const outcome = await runner.run(validEntry('ok', 1), {
      signal: never,
      onStarted: (w) => started.push(w),
    });
    expect(outcome).toMatchObject({
      kind: 'finished',
      result: { verdict: 'verified', exitCode: 0, worker: 'local' },
    });
    expect(started).toEqual(['local']);
    expect(JSON.parse(readFileSync(join(out, 'ok', 'argv.json'), 'utf8'))).toEqual([
      'debian:ok',
      '--json',
      '--out',
      out,
      '--max-attempts',
      '2',
    ]);
    expect(readFileSync(join(out, 'ok', 'port.log'), 'utf8')).toContain('» init ok');
  });

  it('maps escalations, refusals and crashes', async () => {
    const { runner } = setup();
    const run = (name: string) => runner.run(validEntry(name, 1), { signal: never, onStarted: () => {} });
    expect(await run('escalate')).toMatchObject({ result: { verdict: 'escalated', exitCode: 1 } });
    expect(await run('refuse')).toMatchObject({
      result: { verdict: 'invalid', message: 'SOURCE contains shell metacharacters' },
    });
    expect(await run('crash')).toMatchObject({
      result: { verdict: 'crashed', message: expect.stringMatching(/killed by SIGSEGV.*boom/) },
    });
  });

  it('interrupts the port with SIGINT on abort (it stays resumable)', async () => {
    const { out, runner } = setup();
    const controller = new AbortController();
    const pending = runner.run(validEntry('slow', 1), { signal: controller.signal, onStarted: () => {} });
    await until(() => existsSync(join(out, 'slow', 'fake.pid')), 'the port started');
    controller.abort();
    expect(await pending).toEqual({ kind: 'interrupted', wallMs: expect.any(Number) });
    expect(readFileSync(join(out, 'slow', 'port.log'), 'utf8')).toContain('interrupted');
  });

  it('stops a port at the job time-out, and kills one that ignores SIGINT after the grace time', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rvport-child-runner-'));
    const pidFile = join(out, 'stubborn.pid');
    // a shell that ignores SIGINT from its first command on (node would reset the disposition)
    const stubborn = ['/bin/sh', '-c', `trap '' INT; echo $$ > ${pidFile}; sleep 600`, 'port'];
    const runner = childPortRunner({
      out,
      portFlags: [],
      command: stubborn,
      timeoutMs: 1000,
      interruptGraceMs: 300,
    });
    const outcome: RunOutcome = await runner.run(validEntry('stubborn', 1), {
      signal: never,
      onStarted: () => {},
    });
    expect(outcome).toMatchObject({ result: { verdict: 'timed_out' } });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('takes the port down with it when the batch process is killed with SIGKILL', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rvport-child-runner-'));
    const parent = spawn(process.execPath, ['--import', 'tsx', helper, out, 'debian:stubborn'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let said = '';
    parent.stdout.on('data', (d) => {
      said += d;
    });
    const pidFile = join(out, 'stubborn', 'fake.pid');
    await until(() => said.includes('started') && existsSync(pidFile), 'the port started');
    await until(() => readFileSync(pidFile, 'utf8') !== '', 'the pid file');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    parent.kill('SIGKILL');
    await until(() => !isProcessAlive(pid), 'the port died with its parent');
  });
});
