import { describe, expect, it } from 'vitest';
import { parseIsaString } from './parseIsaString.ts';

describe('parseIsaString', () => {
  it('splits a kernel ISA string into base, single letters and multi-letter extensions', () => {
    const isa = parseIsaString('rv64imafdch_zicsr_zifencei_zba_zbb_sscofpmf_sstc_svinval');
    expect(isa?.base).toBe('rv64');
    expect(isa?.single).toEqual(['i', 'm', 'a', 'f', 'd', 'c', 'h']);
    expect(isa?.multi).toEqual(['zicsr', 'zifencei', 'zba', 'zbb', 'sscofpmf', 'sstc', 'svinval']);
    expect(isa?.extensions).toHaveLength(14);
  });

  it('keeps the s and u letters older kernels print, and drops version suffixes', () => {
    expect(parseIsaString('rv64imafdcvsu')?.single).toEqual(['i', 'm', 'a', 'f', 'd', 'c', 'v', 's', 'u']);
    const versioned = parseIsaString('rv64i2p1m2p0a2p1_zicsr2p0_zba1p0');
    expect(versioned?.single).toEqual(['i', 'm', 'a']);
    expect(versioned?.multi).toEqual(['zicsr', 'zba']);
  });

  it('takes -march spellings too and splits a z-name run into the letters', () => {
    expect(parseIsaString('RV64GCV_ZVL256B')).toMatchObject({
      base: 'rv64',
      single: ['g', 'c', 'v'],
      multi: ['zvl256b'],
    });
    expect(parseIsaString('rv64gczicsr')?.multi).toEqual(['zicsr']);
  });

  it('refuses what is not an ISA string', () => {
    expect(parseIsaString('x86_64')).toBeNull();
    expect(parseIsaString('rva23u64')).toBeNull();
    expect(parseIsaString('')).toBeNull();
  });
});
