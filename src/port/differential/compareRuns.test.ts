import { describe, expect, it } from 'vitest';
import { compareSmokeRuns, compareTestRuns, notInBoth } from './compareRuns.ts';

const run = (
  exitCode: number,
  cases: { name: string; status: 'pass' | 'fail' | 'skip'; output?: string }[],
) => ({
  ran: true,
  passed: 0,
  failed: 0,
  exitCode,
  summary: `exit ${exitCode} tail`,
  cases,
});

describe('compareTestRuns', () => {
  it('sorts each test both sides ran into one of the four outcomes, with the failing side output', () => {
    const riscv = run(1, [
      { name: 'a', status: 'pass' },
      { name: 'b', status: 'fail', output: 'riscv b broke' },
      { name: 'c', status: 'fail', output: 'riscv c broke' },
      { name: 'd', status: 'pass' },
      { name: 'skipped', status: 'skip' },
      { name: 'only-here', status: 'fail' },
    ]);
    const x86 = run(1, [
      { name: 'a', status: 'pass' },
      { name: 'b', status: 'pass' },
      { name: 'c', status: 'fail', output: 'x86 c broke' },
      { name: 'd', status: 'fail', output: 'x86 d broke' },
      { name: 'skipped', status: 'pass' },
    ]);
    expect(compareTestRuns(riscv, x86)).toEqual([
      {
        kind: 'test run',
        name: 'the test phase (exit status)',
        outcome: 'fails on both',
        output: 'exit 1 tail',
      },
      { kind: 'test', name: 'a', outcome: 'passes on both' },
      { kind: 'test', name: 'b', outcome: 'fails only on riscv64', output: 'riscv b broke' },
      { kind: 'test', name: 'c', outcome: 'fails on both', output: 'riscv c broke' },
      { kind: 'test', name: 'd', outcome: 'fails only on x86_64', output: 'x86 d broke' },
    ]);
  });

  it('compares nothing when one side did not run its tests', () => {
    expect(compareTestRuns(run(0, []), { ...run(0, []), ran: false })).toEqual([]);
    expect(compareTestRuns(null, run(0, []))).toEqual([]);
  });

  it('compares a run whose harness names no test once, as a whole', () => {
    const whole = (exitCode: number) =>
      run(exitCode, [{ name: '(the test run: make check)', status: exitCode ? 'fail' : 'pass' }]);
    expect(compareTestRuns(whole(1), whole(0))).toHaveLength(1);
  });

  it('compares the run as a whole by exit status', () => {
    expect(compareTestRuns(run(2, []), run(0, []))[0]).toMatchObject({
      outcome: 'fails only on riscv64',
      output: 'exit 2 tail',
    });
  });
});

describe('compareSmokeRuns', () => {
  it('leaves out a program one build does not hold at that path (libzstd names its object folder by a hash of the flags)', () => {
    const riscv = [
      { program: 'obj/conf_1a/zstd', command: 'obj/conf_1a/zstd --version', exitCode: 0, output: 'v1.5' },
      { program: 'zstd', command: 'zstd --version', exitCode: 0, output: 'v1.5' },
    ];
    const x86 = [
      {
        program: 'obj/conf_1a/zstd',
        command: 'obj/conf_1a/zstd --version',
        exitCode: 127,
        output: '',
        absent: true as const,
      },
      { program: 'zstd', command: 'zstd --version', exitCode: 0, output: 'v1.5' },
    ];
    expect(compareSmokeRuns(riscv, x86)).toEqual([
      { kind: 'smoke', name: 'zstd --version', outcome: 'passes on both' },
    ]);
    expect(notInBoth(riscv, x86)).toEqual(['obj/conf_1a/zstd']);
  });

  it('holds the same commands against each other by exit status', () => {
    const riscv = [
      { program: 'p', command: 'p --version', exitCode: 2, output: 'unknown option 255' },
      { program: 'p', command: 'p --help', exitCode: 2, output: '' },
      { program: 'q', command: 'q --version', exitCode: 0, output: 'q 1' },
    ];
    const x86 = [
      { program: 'p', command: 'p --version', exitCode: 0, output: 'p 1.0' },
      { program: 'q', command: 'q --version', exitCode: 0, output: 'q 1' },
    ];
    expect(compareSmokeRuns(riscv, x86)).toEqual([
      {
        kind: 'smoke',
        name: 'p --version',
        outcome: 'fails only on riscv64',
        output: 'exit 2: unknown option 255',
      },
      { kind: 'smoke', name: 'q --version', outcome: 'passes on both' },
    ]);
  });
});
