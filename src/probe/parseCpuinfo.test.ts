import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCpuinfo } from './parseCpuinfo.ts';

/** A fixture's text without its citation lines (each file names its public source first). */
function fixture(name: string): string {
  const text = readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
  expect(text.startsWith('# source: ')).toBe(true);
  return text
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n');
}

describe('parseCpuinfo on real riscv64 boards', () => {
  it('StarFive VisionFive 2 (JH7110, U74): four harts, rv64imafdc, sifive,u74-mc, no ids', () => {
    const info = parseCpuinfo(fixture('visionfive2-jh7110.txt'));
    expect(info.harts.map((h) => [h.processor, h.hart])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(info.isa).toMatchObject({ base: 'rv64', single: ['i', 'm', 'a', 'f', 'd', 'c'], multi: [] });
    expect(info.uarch).toBe('sifive,u74-mc');
    expect(info.mmu).toBe('sv39');
    expect(info.vendorId).toBeNull();
    expect(info.hartIsa).toBeNull();
    expect(info.mixed).toBe(false);
    expect(info.foreign).toBeNull();
  });

  it('Milk-V Mars (JH7110) on a newer kernel: isa and hart isa lines, vendor/arch/impl ids', () => {
    const info = parseCpuinfo(fixture('milkv-mars-jh7110.txt'));
    expect(info.harts).toHaveLength(3);
    expect(info.isa?.multi).toEqual(['zicntr', 'zicsr', 'zifencei', 'zihpm', 'zca', 'zcd', 'zba', 'zbb']);
    expect(info.hartIsa?.string).toBe('rv64imafdc_zicntr_zicsr_zifencei_zihpm_zca_zcd_zba_zbb');
    expect([info.vendorId, info.archId, info.implId]).toEqual(['0x489', '0x8000000000000007', '0x4210427']);
    expect(info.harts[0]?.hart).toBe(2);
  });

  it('the FU740 (uarch sifive,bullet0), spaces instead of tabs', () => {
    const info = parseCpuinfo(fixture('sifive-fu740-bullet0.txt'));
    expect(info.harts).toHaveLength(4);
    expect(info.uarch).toBe('sifive,bullet0');
    expect(info.isa?.string).toBe('rv64imafdc');
  });

  it('HiFive Premier P550: hypervisor letter, supervisor extensions, sv48', () => {
    const info = parseCpuinfo(fixture('hifive-premier-p550.txt'));
    expect(info.isa?.single).toContain('h');
    expect(info.isa?.multi).toEqual(['zicsr', 'zifencei', 'zba', 'zbb', 'sscofpmf']);
    expect(info.mmu).toBe('sv48');
    expect(info.archId).toBe('0x8000000000000008');
    expect(info.uarch).toBeNull();
  });

  it('Lichee Pi 4A (TH1520): the vendor kernel extra lines are ignored, v s u kept as letters', () => {
    const info = parseCpuinfo(fixture('lichee-pi-4a-th1520.txt'));
    expect(info.harts).toHaveLength(4);
    expect(info.isa?.single).toEqual(['i', 'm', 'a', 'f', 'd', 'c', 'v', 's', 'u']);
    expect(info.uarch).toBeNull();
  });

  it('Allwinner D1 (C906): one hart, no trailing blank line', () => {
    const info = parseCpuinfo(fixture('allwinner-d1-c906.txt'));
    expect(info.harts).toEqual([{ processor: 0, hart: 0, isa: 'rv64imafdcvu', mmu: 'sv39' }]);
  });

  it('recognises the host x86 text qemu-user 7.2 passes through, with no riscv fields', () => {
    const out = readFileSync(new URL('./fixtures/local-sandbox-qemu-7.2.out', import.meta.url), 'utf8');
    const cpuinfo = out.split(/@@rvport-probe:[0-9a-f]+:cpuinfo\n/)[1]?.split('\n@@')[0] ?? '';
    const info = parseCpuinfo(cpuinfo);
    expect(info.foreign).toEqual({ vendor: 'AuthenticAMD', model: 'AMD EPYC' });
    expect(info.isa).toBeNull();
    expect(info.harts).toHaveLength(2);
  });

  it('marks harts that disagree as mixed', () => {
    const info = parseCpuinfo('processor\t: 0\nisa\t\t: rv64imac\n\nprocessor\t: 1\nisa\t\t: rv64imafdc\n');
    expect(info.mixed).toBe(true);
    expect(info.isa?.string).toBe('rv64imac');
  });
});
