import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorCheck } from '../../src/doctor/DoctorCheck.ts';
import { startRedis } from '../helpers/redisServer.ts';
import { type CliRun, RVPORT_BIN, runCli } from '../helpers/rvportCli.ts';
import { FakeLlmServer } from '../llm/fakeLlmServer.ts';

const BINFMT_ENTRY = '/proc/sys/fs/binfmt_misc/qemu-riscv64';
// no LLM from the environment the tests run in; each test names what it wants
const NO_LLM = {
  LLM_PROVIDER: '',
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  OPENAI_BASE_URL: '',
  RVPORT_QUEUE_URL: '',
};

let dir: string;
let home: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-doctor-cli-'));
  home = join(dir, 'home');
  mkdirSync(home);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs the real CLI in a mount namespace of its own after `setup` (a shell script, as root): what
 * it mounts there is gone when the process ends, and the host's mounts never see it.
 */
function runInMountNamespace(setup: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  const child = spawn(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      `set -e; ${setup}; exec "$@"`,
      'sh',
      process.execPath,
      RVPORT_BIN,
      ...args,
    ],
    { cwd: dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
}

const lines = (run: CliRun) => run.stdout.trimEnd().split('\n');

/** The check's line and the fix line right under it. */
function lineAndFix(run: CliRun, line: string): [string | undefined, string | undefined] {
  const all = lines(run);
  const at = all.indexOf(line);
  return [all[at], at === -1 ? undefined : all[at + 1]];
}

describe('rvport doctor (real processes)', () => {
  it('passes everything a port needs on this machine, exit 0, one line per check', async () => {
    const run = await runCli(['doctor'], { cwd: dir, env: { ...NO_LLM, RVPORT_HOME: home } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    for (const line of lines(run)) expect(line).toMatch(/^(ok {4}|warn {2}|info {2}| {4}fix: )\S/);
    expect(run.stdout).not.toMatch(/^FAIL/m);
    expect(run.stdout).toMatch(/^ok {4}Linux \S+ \(user namespaces/m);
    expect(run.stdout).toMatch(/^ok {4}riscv64 binaries run through \S+ \(flags \w*F\w*\)$/m);
    expect(run.stdout).toContain(`ok    RVPORT_HOME ${home} is writable`);
    expect(run.stdout).toMatch(/^ok {4}Debian mirror \S+ answers for trixie$/m);
    expect(run.stdout).toContain('ok    no LLM configured: ports run deterministically');
    // an empty home: the images are to be provisioned, which is information, not a failure
    expect(run.stdout).toMatch(/^info {2}sandbox images .* the first port provisions them, ~5 minutes$/m);
    // no queue URL given: no queue line
    expect(run.stdout).not.toMatch(/Redis|queue/);
  }, 60_000);

  it('prints the checks as a JSON array with --json', async () => {
    const run = await runCli(['doctor', '--json'], { cwd: dir, env: { ...NO_LLM, RVPORT_HOME: home } });
    expect(run.code).toBe(0);
    const checks = JSON.parse(run.stdout) as DoctorCheck[];
    expect(Array.isArray(checks)).toBe(true);
    const ids = checks.map((c) => c.id);
    for (const id of [
      'kernel',
      'command:arch-test',
      'command:newuidmap',
      'binfmt-mounted',
      'binfmt-riscv64',
      'overlayfs',
      'namespaces',
      'subordinate-ids',
      'cgroups',
      'rvport-home',
      'disk-space',
      'debian-mirror',
      'images',
      'llm',
    ])
      expect(ids).toContain(id);
    expect(checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(checks.find((c) => c.id === 'images')?.status).toBe('info');
  }, 60_000);

  it('fails a read-only RVPORT_HOME with the fix, exit 1', async () => {
    const ro = join(dir, 'read-only');
    mkdirSync(ro);
    const run = await runInMountNamespace(`mount -t tmpfs -o ro tmpfs "${ro}"`, ['doctor'], {
      ...NO_LLM,
      RVPORT_HOME: ro,
    });
    expect(run.code).toBe(1);
    expect(lineAndFix(run, `FAIL  RVPORT_HOME ${ro} is on a read-only filesystem`)).toEqual([
      `FAIL  RVPORT_HOME ${ro} is on a read-only filesystem`,
      `    fix: mount -o remount,rw ${ro}   (or set RVPORT_HOME to a folder on a writable local disk)`,
    ]);
    // only that failed
    expect(lines(run).filter((l) => l.startsWith('FAIL'))).toHaveLength(1);
    expect(run.stderr).toBe('');
  }, 60_000);

  it('fails a missing RVPORT_HOME that cannot be created under a read-only folder', async () => {
    const ro = join(dir, 'read-only-parent');
    mkdirSync(ro);
    const run = await runInMountNamespace(`mount -t tmpfs -o ro tmpfs "${ro}"`, ['doctor', '--json'], {
      ...NO_LLM,
      RVPORT_HOME: join(ro, 'rvport', 'home'),
    });
    expect(run.code).toBe(1);
    const check = (JSON.parse(run.stdout) as DoctorCheck[]).find((c) => c.id === 'rvport-home');
    expect(check).toMatchObject({ status: 'fail', fix: expect.stringMatching(/^mount -o remount,rw /) });
    expect(check?.detail).toContain('does not exist and cannot be created there');
  }, 60_000);

  it('fails an unregistered riscv64 binfmt entry with update-binfmts, leaving the host registration alone', async () => {
    // an empty binfmt_misc seen only by this process: mounted (status exists), no riscv64 entry
    const setup =
      'mount -t tmpfs tmpfs /proc/sys/fs/binfmt_misc; echo enabled > /proc/sys/fs/binfmt_misc/status';
    const run = await runInMountNamespace(setup, ['doctor'], { ...NO_LLM, RVPORT_HOME: home });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('ok    binfmt_misc is mounted');
    expect(lineAndFix(run, 'FAIL  no binfmt_misc entry for riscv64')).toEqual([
      'FAIL  no binfmt_misc entry for riscv64',
      '    fix: update-binfmts --enable qemu-riscv64',
    ]);
    expect(readFileSync(BINFMT_ENTRY, 'utf8')).toMatch(/^enabled/);

    const json = await runInMountNamespace(setup, ['doctor', '--json'], { ...NO_LLM, RVPORT_HOME: home });
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as DoctorCheck[]).find((c) => c.id === 'binfmt-riscv64')).toEqual({
      id: 'binfmt-riscv64',
      status: 'fail',
      detail: 'no binfmt_misc entry for riscv64',
      fix: 'update-binfmts --enable qemu-riscv64',
    });
  }, 60_000);

  it('checks the Redis server of --queue when one is given', async () => {
    const redis = await startRedis({ password: 'doctor-pw' });
    try {
      const up = await runCli(['doctor', '--queue', redis.url], {
        cwd: dir,
        env: { ...NO_LLM, RVPORT_HOME: home },
      });
      expect(up.code).toBe(0);
      expect(up.stdout).toMatch(/^ok {4}Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ answers/m);
      expect(up.stdout).not.toContain('doctor-pw');
    } finally {
      await redis.stop();
    }
    const down = await runCli(['doctor'], {
      cwd: dir,
      env: { ...NO_LLM, RVPORT_HOME: home, RVPORT_QUEUE_URL: redis.url },
    });
    expect(down.code).toBe(1);
    expect(down.stdout).toMatch(/^FAIL {2}cannot reach the queue at /m);
    expect(down.stdout).toMatch(/^ {4}fix: start Redis there/m);
    expect(down.stdout).not.toContain('doctor-pw');
  }, 60_000);

  it('asks a configured LLM for one token, and warns without failing when the key is refused', async () => {
    const llm = await new FakeLlmServer().start();
    try {
      const env = {
        ...NO_LLM,
        RVPORT_HOME: home,
        LLM_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-doctor',
        OPENAI_BASE_URL: llm.openAiBaseUrl,
      };
      llm.enqueue({ text: 'OK' });
      const ok = await runCli(['doctor'], { cwd: dir, env });
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/^ok {4}LLM openai \(\S+\) answers$/m);
      llm.enqueue({ status: 401, message: 'invalid api key' });
      const refused = await runCli(['doctor'], { cwd: dir, env });
      expect(refused.code).toBe(0);
      expect(refused.stdout).toMatch(/^warn {2}LLM openai .*HTTP 401/m);
      expect(llm.requests).toHaveLength(2);
    } finally {
      await llm.close();
    }
  }, 60_000);
});

describe('the first port runs the same checks before provisioning', () => {
  it('stops with the failing line and its fix, exit 1, no stack trace', async () => {
    const ro = join(dir, 'port-read-only');
    const source = join(dir, 'source');
    mkdirSync(ro);
    mkdirSync(source);
    writeFileSync(join(source, 'Makefile'), 'all:\n\techo hi\n');
    const run = await runInMountNamespace(
      `mount -t tmpfs -o ro tmpfs "${ro}"`,
      ['port', source, '--out', join(dir, 'out')],
      { ...NO_LLM, RVPORT_HOME: ro },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `FAIL  RVPORT_HOME ${ro} is on a read-only filesystem\n    fix: mount -o remount,rw ${ro}`,
    );
    expect(run.stderr).toContain('rvport doctor checks everything');
    expect(run.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(run.stderr).not.toContain('provisioning the riscv64 sandbox');
  }, 60_000);
});
