import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../src/process/runProcess.ts';
import { createSandbox, listInstances, sandboxPaths } from '../../src/sandbox/index.ts';
import { hostProcessesWith, PROVISION_TIMEOUT_MS, provisionedImages, waitFor } from './provisionedImages.ts';

const RVPORT = join(import.meta.dirname, '../../bin/rvport.js');

function rvport(args: string[], options: { timeoutMs?: number } = {}) {
  return runProcess({ command: [RVPORT, ...args], timeoutMs: options.timeoutMs ?? 120_000 });
}

beforeAll(async () => {
  await provisionedImages();
}, PROVISION_TIMEOUT_MS);

describe('rvport sandbox', () => {
  it('exec -- uname -m prints riscv64', async () => {
    const result = await rvport(['sandbox', 'exec', '--', 'uname', '-m']);
    expect(result.stdout).toBe('riscv64\n');
    expect(result.exitCode).toBe(0);
  });

  it('exec of a missing command fails clearly with exit 1', async () => {
    const result = await rvport(['sandbox', 'exec', '--mode', 'emulated', '--', 'no-such-tool-xyz']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('command not found in the sandbox: no-such-tool-xyz');
  });

  it('exec --json reports the command status and output', async () => {
    const result = await rvport(['sandbox', 'exec', '--json', '--', 'sh', '-c', 'echo out; exit 4']);
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ exitCode: 4, stdout: 'out\n', mode: 'accelerated' });
  });

  it('exec without a provisioned image says to run setup, exit 1', async () => {
    const result = await runProcess({
      command: [RVPORT, 'sandbox', 'exec', '--', 'true'],
      env: { RVPORT_HOME: '/tmp/rvport-cli-empty-home' },
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('no riscv64 trixie image');
    expect(result.stderr).toContain('rvport sandbox setup --mode accelerated');
  });

  it('rejects an unknown mode', async () => {
    const result = await rvport(['sandbox', 'exec', '--mode', 'turbo', '--', 'true']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('--mode must be one of native-userland, accelerated, emulated');
  });

  it('setup is a quick no-op with the images cached, and status shows them', async () => {
    const setup = await rvport(['sandbox', 'setup', '--json']);
    expect(setup.exitCode).toBe(0);
    const summary = JSON.parse(setup.stdout);
    expect(summary.durationMs).toBeLessThan(5000);
    expect(summary.images.map((i: { kind: string }) => i.kind)).toEqual([
      'rootfs',
      'tools',
      'accel',
      'tools',
      'native',
    ]);
    const status = JSON.parse((await rvport(['sandbox', 'status', '--json'])).stdout);
    expect(status).toMatchObject({ hostReady: true, modes: { emulated: 'ready', accelerated: 'ready' } });
    expect(status.modes['native-userland']).toMatch(/^ready \(\d+ programs swapped\)$/);
    // the committed proof table, for the layers in use
    expect(status.proofs.identical).toEqual(expect.arrayContaining(['libzstd']));
    expect(status.proofs.different).toEqual(expect.arrayContaining(['libinih']));
    expect(status.binfmt.fixBinary).toBe(true);
  });

  it('without root, setup names what is missing and how to fix it, exit 1', async () => {
    const result = await runProcess({
      command: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', RVPORT, 'sandbox', 'setup'],
      env: { HOME: '/tmp', RVPORT_HOME: '/tmp/rvport-nonroot-home' },
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('needs root');
    expect(result.stderr).toContain('to fix it, run:');
  });

  it('after SIGKILL of rvport mid-command, the command dies and the next start cleans up', async () => {
    const paths = sandboxPaths();
    const marker = `${5000 + Math.floor(Math.random() * 999)}.25`;
    const cli = rvport(['sandbox', 'exec', '--', 'sleep', marker], { timeoutMs: 60_000 });
    const isEmulatedSleep = async (pid: number) =>
      (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).includes('qemu');
    expect(
      await waitFor(async () => {
        for (const pid of await hostProcessesWith(marker)) if (await isEmulatedSleep(pid)) return true;
        return false;
      }, 30_000),
    ).toBe(true);
    const owners = (await listInstances(paths)).map((i) => i.ownerPid);
    const cliPid = (await hostProcessesWith('exec')).find((pid) => owners.includes(pid));
    expect(cliPid).toBeDefined();
    process.kill(cliPid as number, 'SIGKILL');
    await cli;
    expect(await waitFor(async () => (await hostProcessesWith(marker)).length === 0, 10_000)).toBe(true);
    const stale = (await listInstances(paths)).find((i) => i.ownerPid === cliPid);
    expect(stale).toBeDefined();
    const next = await createSandbox({ mode: 'emulated' });
    await next.destroy();
    expect((await listInstances(paths)).some((i) => i.id === stale?.id)).toBe(false);
  }, 90_000);
});
