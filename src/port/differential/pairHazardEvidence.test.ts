import { describe, expect, it } from 'vitest';
import type { ArchitectureFinding } from '../state/PortState.ts';
import { pairHazardEvidence } from './pairHazardEvidence.ts';

const finding = (file: string, line: number): ArchitectureFinding => ({
  kind: 'char-signedness',
  severity: 'high',
  file,
  line,
  snippet: 'while ((c = getopt(argc, argv, "v")) != -1)',
  message: 'a plain char receives an int result: char is unsigned on riscv64',
  suggestion: 'int c',
});

describe('pairHazardEvidence', () => {
  it('puts a compiler warning and a scan finding on the same line together, first', () => {
    const warnings = [
      'other.c:3:5: warning: cast from pointer to integer of different size [-Wpointer-to-int-cast]',
      'src/opts.c:9:40: warning: comparison is always true due to limited range of data type [-Wtype-limits]',
    ];
    const evidence = pairHazardEvidence(warnings, [
      finding('lib/read.c', 20),
      finding('src/opts.c', 9),
      { ...finding('x.c', 1), kind: 'inline-asm' },
    ]);
    expect(evidence).toEqual([
      {
        location: 'src/opts.c:9',
        warning: warnings[1],
        finding:
          'while ((c = getopt(argc, argv, "v")) != -1): a plain char receives an int result: char is unsigned on riscv64',
      },
      { location: 'other.c:3', warning: warnings[0] },
      {
        location: 'lib/read.c:20',
        finding:
          'while ((c = getopt(argc, argv, "v")) != -1): a plain char receives an int result: char is unsigned on riscv64',
      },
    ]);
  });

  it('matches paths the compiler names from the build folder', () => {
    const evidence = pairHazardEvidence(
      ['../src/opts.c:9:1: warning: comparison is always true due to limited range of data type'],
      [finding('src/opts.c', 9)],
    );
    expect(evidence).toHaveLength(1);
    expect(evidence[0]?.finding).toBeDefined();
  });

  it('does not pair a warning with a finding on another line', () => {
    const evidence = pairHazardEvidence(
      ['opts.c:8:1: warning: comparison is always true'],
      [finding('opts.c', 9)],
    );
    expect(evidence).toHaveLength(2);
    expect(evidence.every((e) => !(e.warning && e.finding))).toBe(true);
  });
});
