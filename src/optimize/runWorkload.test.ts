import { describe, expect, it } from 'vitest';
import { fingerprint, runWorkload } from './runWorkload.ts';
import { scriptedTarget } from './testing/scriptedTarget.ts';

describe('fingerprint', () => {
  it('is exact by default: one changed byte or another exit status differs', () => {
    expect(fingerprint('checksum 42\n', 0, 'exact')).toBe(fingerprint('checksum 42\n', 0, 'exact'));
    expect(fingerprint('checksum 42\n', 0, 'exact')).not.toBe(fingerprint('checksum 43\n', 0, 'exact'));
    expect(fingerprint('checksum 42\n', 0, 'exact')).not.toBe(fingerprint('checksum 42\n', 1, 'exact'));
  });
  it('masks numbers for benchmarks, which print their timings', () => {
    expect(fingerprint('compress: 12.5 MB/s in 0.31 s\n', 0, 'numbers-masked')).toBe(
      fingerprint('compress: 13.25 MB/s in 0.29 s\n', 0, 'numbers-masked'),
    );
    expect(fingerprint('compress ok', 0, 'numbers-masked')).not.toBe(
      fingerprint('compress FAILED', 0, 'numbers-masked'),
    );
  });
  it('keeps only the test result lines, durations masked, so compiler lines with the flags do not count', () => {
    const a = 'cc -O2 -c -o t.o t.c\nPASS: t1\nPASS: t2\n    Test #1: foo .....   Passed    0.01 sec\n';
    const b =
      'cc -O3 -march=rv64gc_zba -c -o t.o t.c\nPASS: t2\nPASS: t1\n    Test #1: foo .....   Passed    0.02 sec\n';
    expect(fingerprint(a, 0, 'test-results')).toBe(fingerprint(b, 0, 'test-results'));
    expect(fingerprint(a, 0, 'test-results')).not.toBe(
      fingerprint(a.replace('PASS: t2', 'FAIL: t2'), 0, 'test-results'),
    );
  });
});

describe('runWorkload', () => {
  it('runs each command in the target and stops at the first failure', async () => {
    const target = scriptedTarget((c) =>
      c === 'false' ? { exitCode: 1, stdout: 'no' } : { stdout: c, durationMs: 5 },
    );
    const run = await runWorkload(
      target,
      { commands: ['a', 'false', 'b'], compare: 'exact' },
      { cwd: '/build/src', env: { X: '1' }, timeoutMs: 1000 },
    );
    expect(run).toMatchObject({ exitCode: 1, durationMs: 15, timedOut: false });
    expect(target.commands.map((c) => c.command)).toEqual(['a', 'false']);
    expect(target.commands[0]?.options).toMatchObject({
      cwd: '/build/src',
      env: { X: '1' },
      timeoutMs: 1000,
    });
  });
});
