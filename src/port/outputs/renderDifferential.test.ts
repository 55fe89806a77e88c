import { describe, expect, it } from 'vitest';
import type { DifferentialRecord } from '../differential/DifferentialRecord.ts';
import { renderDifferential } from './renderDifferential.ts';

const record: DifferentialRecord = {
  ran: true,
  reason: '3 compared: 1 pass on both, 0 fail on both, 2 fail only on riscv64, 0 fail only on x86_64',
  at: '2026-12-01T12:00:00Z',
  durationMs: 6_000,
  x86BuildMs: 4_000,
  x86TestMs: 1_500,
  rows: [
    { kind: 'test', name: 'parse', outcome: 'passes on both' },
    { kind: 'test', name: 'options', outcome: 'fails only on riscv64', output: 'unknown option 255' },
    { kind: 'smoke', name: 'opts --version', outcome: 'fails only on riscv64', output: 'exit 2' },
  ],
  riscv64Only: 2,
  x86Only: 0,
  hazards: [
    {
      location: 'opts.c:9',
      warning: 'opts.c:9:40: warning: comparison is always true due to limited range of data type',
      finding: 'char c: a plain char receives an int result',
    },
  ],
};

describe('renderDifferential', () => {
  it('renders the four outcomes, the riscv64-only failures with their output, and the hazard beside them', () => {
    const text = renderDifferential(record).join('\n');
    expect(text).toContain('## Differential tests (riscv64 against x86_64)');
    expect(text).toContain('Added time 6.0 s (x86_64 build 4.0 s, tests and smoke runs 1.5 s)');
    expect(text).toContain('**2 fail only on riscv64**');
    expect(text).toContain('| fails only on riscv64 | 2 | options, smoke: opts --version |');
    expect(text).toContain('| passes on both | 1 | parse |');
    expect(text).toContain('| fails on both | 0 |  |');
    expect(text).toContain('- test: `options`\n\n```\nunknown option 255\n```');
    expect(text).toContain(
      '| opts.c:9 | opts.c:9:40: warning: comparison is always true due to limited range of data type | char c: a plain char receives an int result |',
    );
  });

  it('says why nothing was compared, and renders nothing for a port without differential tests', () => {
    const text = renderDifferential({
      ...record,
      ran: false,
      reason: 'the x86_64 build failed',
      rows: [],
    }).join('\n');
    expect(text).toContain('Not compared: the x86_64 build failed');
    expect(renderDifferential(undefined)).toEqual([]);
  });
});
