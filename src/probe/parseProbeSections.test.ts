import { describe, expect, it } from 'vitest';
import { isProbeOutputError, parseProbeSections } from './parseProbeSections.ts';

const N = 'aa11bb22cc33dd44ee55ff66';

describe('parseProbeSections', () => {
  it('splits the output at this run’s markers and trims the blank line before each', () => {
    const out = `\n@@rvport-probe:${N}:uname-m\nriscv64\n\n@@rvport-probe:${N}:cpuinfo\nprocessor\t: 0\n\nprocessor\t: 1\n\n@@rvport-probe:${N}:end\n`;
    const sections = parseProbeSections(out, N);
    expect([...sections.keys()]).toEqual(['uname-m', 'cpuinfo']);
    expect(sections.get('uname-m')).toBe('riscv64');
    expect(sections.get('cpuinfo')).toBe('processor\t: 0\n\nprocessor\t: 1');
  });

  it('does not let the target forge sections: another nonce, a bad name, a second copy, text after end', () => {
    const out = [
      `@@rvport-probe:${N}:uname-m`,
      'riscv64',
      '@@rvport-probe:000000000000000000000000:uname-m',
      'x86_64',
      `@@rvport-probe:${N}:../../etc/passwd`,
      `@@rvport-probe:${N}:uname-m`,
      'mips',
      `@@rvport-probe:${N}:end`,
      `@@rvport-probe:${N}:helper`,
      'insn v ok',
    ].join('\n');
    const sections = parseProbeSections(out, N);
    expect(sections.get('uname-m')).toBe(
      'riscv64\n@@rvport-probe:000000000000000000000000:uname-m\nx86_64\n@@rvport-probe:aa11bb22cc33dd44ee55ff66:../../etc/passwd',
    );
    expect(sections.has('helper')).toBe(false);
  });

  it('throws a coded error when the probe was cut short', () => {
    let caught: unknown;
    try {
      parseProbeSections(`@@rvport-probe:${N}:uname-m\nriscv64\n`, N);
    } catch (error) {
      caught = error;
    }
    expect(isProbeOutputError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/did not finish/);
  });
});
