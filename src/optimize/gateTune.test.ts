import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkObject, gateTests, gateWorkload } from './gateTune.ts';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(join(import.meta.dirname, '../verify/fixtures', name)));

describe('checkObject', () => {
  it('passes riscv64 files, archives member by member, and refuses another machine', () => {
    expect(checkObject('crunch', fixture('riscv64-exe'), [])).toBeNull();
    expect(checkObject('libx.a', fixture('riscv64-lib.a'), [])).toBeNull();
    expect(checkObject('x.o', fixture('aarch64.o'), [])).toBe('x.o is aarch64, not riscv64');
    expect(checkObject('mixed.a', fixture('mixed.a'), [])).toMatch(/not riscv64/);
    expect(checkObject('junk', new TextEncoder().encode('#!/bin/sh\n'), [])).toMatch(/^junk: /);
  });

  it('fails a -march tune whose flags did not reach the object code (no zba in Tag_RISCV_arch)', () => {
    expect(checkObject('crunch', fixture('riscv64-exe'), ['zba', 'zbb'])).toMatch(
      /^crunch records rv64i2p1_m2p0.*, without zba, zbb \(the flags did not reach this build\)$/,
    );
    expect(checkObject('libx.a', fixture('riscv64-lib.a'), ['zbs'])).toMatch(
      /^libx\.a\(lib\.o\) records .* without zbs/,
    );
    // extensions it has pass
    expect(checkObject('crunch', fixture('riscv64-exe'), ['c', 'zicsr'])).toBeNull();
  });
});

describe('gateTests', () => {
  const base = { ran: true, passed: 10, failed: 0, exitCode: 0, summary: '' };
  it('passes a tune whose tests pass as the baseline', () => {
    expect(gateTests(base, { ...base })).toMatchObject({
      passed: true,
      detail: '10 passed, 0 failed (baseline 10 passed, 0 failed)',
    });
  });
  it('fails a tune with a failing or lost test', () => {
    expect(gateTests(base, { ...base, passed: 9, failed: 1, exitCode: 2 })).toMatchObject({
      passed: false,
      detail: expect.stringMatching(/^the tests fail \(exit 2\)/),
    });
    expect(
      gateTests({ ...base, failed: 1, exitCode: 1 }, { ...base, passed: 8, failed: 1, exitCode: 1 }),
    ).toMatchObject({ passed: false, detail: expect.stringMatching(/^fewer tests pass/) });
    expect(gateTests(base, { ...base, ran: false, summary: 'no test step' })).toMatchObject({
      passed: false,
    });
  });
  it('has nothing to compare when the baseline ran no tests', () => {
    expect(
      gateTests({ ...base, ran: false, summary: 'the build system has no test step' }, base),
    ).toMatchObject({ passed: true, detail: 'not run: the build system has no test step' });
  });
});

describe('gateWorkload', () => {
  it('compares the fingerprints', () => {
    expect(gateWorkload('exit 0; sha256 aa', 'exit 0; sha256 aa').passed).toBe(true);
    expect(gateWorkload('exit 0; sha256 aa', 'exit 0; sha256 bb')).toMatchObject({
      passed: false,
      detail: expect.stringMatching(/differs/),
    });
  });
});
