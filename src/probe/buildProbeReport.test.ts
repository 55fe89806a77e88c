import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildProbeReport } from './buildProbeReport.ts';
import { formatProbeReport } from './formatProbeReport.ts';
import { parseProbeSections } from './parseProbeSections.ts';

const NONCE = '0123456789abcdef01234567';
const local = readFileSync(new URL('./fixtures/local-sandbox-qemu-7.2.out', import.meta.url), 'utf8');

function boardRun(cpuinfoFixture: string, helper: string): string {
  const cpuinfo = readFileSync(new URL(`./fixtures/${cpuinfoFixture}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n');
  const sec = (name: string, text: string) => `\n@@rvport-probe:${NONCE}:${name}\n${text}\n`;
  return [
    sec('uname-m', 'riscv64'),
    sec('uname-r', '6.6.20'),
    sec('nproc', '4'),
    sec('meminfo', 'MemTotal:        8039320 kB'),
    sec('cpuinfo', cpuinfo),
    sec('shell-exe', '/usr/bin/dash'),
    sec('qemu-cpu', ''),
    sec('compiler:gcc:version', 'gcc (Debian 14.2.0-19) 14.2.0'),
    sec('compiler:gcc:target', 'riscv64-linux-gnu'),
    sec('compiler:gcc:march', 'accepted rv64gc\nrejected rva23u64 gcc: error: bad'),
    sec('helper', helper),
    sec('end', ''),
  ].join('');
}

describe('buildProbeReport', () => {
  it('the real run on this project’s machine: riscv64 under qemu-user 7.2, ISA from what qemu executes', () => {
    const report = buildProbeReport(parseProbeSections(local, NONCE), {
      target: 'local-sandbox',
      mode: 'accelerated',
      qemuVersion: '7.2.22',
    });
    expect(report.machine).toBe('riscv64');
    expect(report.cores).toBe(2);
    expect(report.memoryMb).toBeGreaterThan(1000);
    expect(report.isa).toMatchObject({
      base: 'rv64',
      source: 'emulator',
      string: 'rv64imafdc_zba_zbb_zbc_zbs',
    });
    expect(report.hwprobe).toBeNull();
    expect(report.hwprobeReason).toMatch(/emulator does not implement riscv_hwprobe/);
    expect(report.compilers[0]?.march.accepted).toContain('rv64gc');
    expect(report.compilers[0]?.march.rejected.map((r) => r.march)).toContain('rva23u64');
    expect(report.emulated).toMatchObject({ is: true, by: 'qemu-user', cpuModel: 'rv64' });
    expect(report.emulated.evidence.join('\n')).toMatch(/AuthenticAMD/);
    expect(report.emulated.evidence.join('\n')).toMatch(/qemu-riscv64-static/);
    expect(formatProbeReport(report)).toMatch(/emulated: yes, by qemu-user, cpu model rv64/);
  });

  it('QEMU_CPU names the model; another qemu version is named, not guessed', () => {
    const withCpu = local.replace(/(:qemu-cpu\n)/, '$1sifive-u54\n');
    expect(
      buildProbeReport(parseProbeSections(withCpu, NONCE), { target: 'local-sandbox', mode: 'emulated' })
        .emulated.cpuModel,
    ).toBe('sifive-u54');
    expect(
      buildProbeReport(parseProbeSections(local, NONCE), {
        target: 'local-sandbox',
        mode: 'emulated',
        qemuVersion: '9.2.0',
      }).emulated.cpuModel,
    ).toBe('qemu-user 9.2.0 default');
  });

  it('a real board (Milk-V Mars cpuinfo) with hwprobe: no emulation, ids and hart isa from cpuinfo', () => {
    const helper = [
      'hwcap 0x112d',
      'hwprobe 0 0x489',
      'hwprobe 1 0x8000000000000007',
      'hwprobe 2 0x4210427',
      'hwprobe 3 0x1',
      'hwprobe 4 0x1b',
      'insn zba ok',
      'insn zbb ok',
      'insn v sigill',
      'parent-exe /tmp/rvport-probe.x/helper',
    ].join('\n');
    const report = buildProbeReport(parseProbeSections(boardRun('milkv-mars-jh7110.txt', helper), NONCE), {
      target: 'local-sandbox',
      mode: 'emulated',
    });
    expect(report.emulated).toEqual({ is: false, by: null, cpuModel: null, extensions: null, evidence: [] });
    expect(report.isa?.source).toBe('cpuinfo');
    expect(report.hartIsa?.extensions).toContain('zca');
    expect(report.vendorId).toBe('0x489');
    expect(report.uarch).toBe('sifive,u74-mc');
    expect(report.hwprobe?.extensions).toEqual(['i', 'm', 'a', 'f', 'd', 'c', 'zba', 'zbb']);
    expect(report.hwprobeReason).toBeNull();
    expect(report.memoryMb).toBe(7851);
    expect(formatProbeReport(report)).toMatch(/emulated: no sign of emulation/);
  });

  it("newer qemu-user's own /proc/cpuinfo (uarch qemu, as linux-user/riscv/target_proc.h prints it) is emulation", () => {
    const qemuText =
      'processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc_zicsr_zifencei_zba_zbb\nmmu\t\t: sv48\nuarch\t\t: qemu\n\n';
    const run = boardRun('visionfive2-jh7110.txt', 'hwcap 0x112d').replace(
      /(:cpuinfo\n)[\s\S]*?(\n@@)/,
      `$1${qemuText}$2`,
    );
    const report = buildProbeReport(parseProbeSections(run, NONCE), {
      target: 'local-sandbox',
      mode: 'emulated',
    });
    expect(report.emulated).toMatchObject({ is: true, by: 'qemu-user' });
    expect(report.isa?.source).toBe('cpuinfo');
    expect(report.uarch).toBe('qemu');
  });

  it('an old board kernel without hwprobe says why, and no compiler means no helper', () => {
    const old = buildProbeReport(
      parseProbeSections(
        boardRun('visionfive2-jh7110.txt', 'hwprobe-error 38 Function not implemented'),
        NONCE,
      ),
      { target: 'local-sandbox', mode: 'emulated' },
    );
    expect(old.hwprobeReason).toMatch(/kernel has no riscv_hwprobe/);
    expect(old.emulated.is).toBe(false);
    const none = buildProbeReport(
      parseProbeSections(boardRun('allwinner-d1-c906.txt', 'unavailable no C compiler'), NONCE),
      { target: 'local-sandbox', mode: 'emulated' },
    );
    expect(none.hwprobeReason).toBe('not available: no C compiler');
    expect(none.isa?.string).toBe('rv64imafdcvu');
  });
});
