import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProbeReport } from '../../src/probe/buildProbeReport.ts';
import { runCli } from '../helpers/rvportCli.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-probe-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The real CLI against the provisioned images: the probe runs in a throwaway riscv64 instance.
describe('rvport probe', () => {
  it('--json describes the sandbox: riscv64 under qemu-user, gcc accepting rv64gc', {
    timeout: 300_000,
  }, async () => {
    const run = await runCli(['probe', '--json'], { cwd: dir });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as ProbeReport;
    expect(report.target).toBe('local-sandbox');
    expect(report.machine).toBe('riscv64');
    expect(report.kernel).toMatch(/^\d+\.\d+/);
    expect(report.cores).toBeGreaterThanOrEqual(1);
    expect(report.memoryMb).toBeGreaterThan(256);
    expect(report.isa?.base).toBe('rv64');
    expect(report.isa?.extensions).toEqual(expect.arrayContaining(['i', 'm', 'a', 'f', 'd', 'c']));
    const gcc = report.compilers.find((c) => c.name === 'gcc');
    expect(gcc?.version).toMatch(/^gcc .*\d+\.\d+/);
    expect(gcc?.target).toBe('riscv64-linux-gnu');
    expect(gcc?.march.accepted).toContain('rv64gc');
    // each refusal carries the compiler's own error line
    for (const rejected of gcc?.march.rejected ?? []) expect(rejected.reason).toMatch(/error/i);
    expect(report.emulated.is).toBe(true);
    expect(report.emulated.by).toBe('qemu-user');
    expect(report.emulated.cpuModel).toBeTruthy();
    expect(report.emulated.evidence.some((e) => /qemu-riscv64/.test(e))).toBe(true);
    expect(report.hwprobe === null ? report.hwprobeReason : 'present').toMatch(/not available|present/);
  });

  it('says what to run, exit 1 and no stack trace, when the sandbox is not provisioned', async () => {
    const home = join(dir, 'empty-home');
    mkdirSync(home);
    const run = await runCli(['probe'], { cwd: dir, env: { RVPORT_HOME: home } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no riscv64 trixie image/);
    expect(run.stderr).toMatch(/rvport sandbox setup --mode accelerated/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });
});
