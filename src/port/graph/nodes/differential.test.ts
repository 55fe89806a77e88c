import { describe, expect, it } from 'vitest';
import type { X86SideResult } from '../../differential/runX86Side.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../../testing/fakePortServices.ts';
import { portState } from '../../testing/portStateFixture.ts';
import { differentialNode } from './differential.ts';

const tests = (exitCode: number, options: 'pass' | 'fail') => ({
  ran: true,
  passed: 1,
  failed: options === 'fail' ? 1 : 0,
  exitCode,
  summary: options === 'fail' ? 'FAIL: options' : 'PASS: options',
  cases: [
    { name: 'built', status: 'pass' as const },
    { name: 'options', status: options, ...(options === 'fail' ? { output: 'unknown option 255' } : {}) },
  ],
});

function verifiedState(differential: boolean) {
  const state = portState({
    verification: { verdict: 'verified', reason: '1 riscv64 program' },
    tests: tests(2, 'fail'),
    smokeTests: [{ program: 'opts', command: 'opts --version', exitCode: 2, output: 'unknown option 255' }],
    hazardWarnings: ['opts.c:9:40: warning: comparison is always true due to limited range of data type'],
    findings: [
      {
        kind: 'char-signedness',
        severity: 'high',
        file: 'opts.c',
        line: 9,
        snippet: 'while ((c = getopt(argc, argv, "v")) != -1)',
        message: 'a plain char receives an int result',
        suggestion: 'int c',
      },
    ],
  });
  return { ...state, options: { ...state.options, differential } };
}

const x86: X86SideResult = {
  tests: tests(0, 'pass'),
  smokeTests: [{ program: 'opts', command: 'opts --version', exitCode: 0, output: 'opts 1.0' }],
  provisionMs: 0,
  buildMs: 1200,
  testMs: 300,
};

describe('the differential node', () => {
  it('is skipped unless asked for, and for a port that is not verified', async () => {
    const svc = fakePortServices(new FakeSandbox());
    const off = await runPortNode(differentialNode, verifiedState(false), svc);
    expect(off.differential).toBeUndefined();
    expect(off.audit?.at(-1)).toMatchObject({
      event: 'skipped',
      detail: 'not asked for (--differential runs them)',
    });
    const unverified = {
      ...verifiedState(true),
      verification: { verdict: 'not_verified' as const, reason: 'x' },
    };
    const skipped = await runPortNode(differentialNode, unverified, svc);
    expect(skipped.audit?.at(-1)).toMatchObject({ event: 'skipped', detail: 'the port is not verified' });
  });

  it("holds the checkpointed x86_64 side against riscv64's: riscv64-only failures, the hazard beside them, the verdict text marked", async () => {
    const sandbox = new FakeSandbox();
    const update = await runPortNode(differentialNode, verifiedState(true), fakePortServices(sandbox), {
      value: x86,
    });
    // resumed from its checkpoint: nothing ran in a sandbox
    expect(sandbox.commands).toEqual([]);
    const record = update.differential;
    expect(record).toMatchObject({ ran: true, riscv64Only: 3, x86Only: 0, x86BuildMs: 1200 });
    expect(record?.rows.map((r) => [r.name, r.outcome])).toEqual([
      ['the test phase (exit status)', 'fails only on riscv64'],
      ['built', 'passes on both'],
      ['options', 'fails only on riscv64'],
      ['opts --version', 'fails only on riscv64'],
    ]);
    expect(record?.hazards[0]).toMatchObject({ location: 'opts.c:9' });
    expect(record?.hazards[0]?.warning).toBeDefined();
    expect(record?.hazards[0]?.finding).toBeDefined();
    expect(update.verification).toEqual({
      verdict: 'verified',
      reason: '1 riscv64 program; 3 test or smoke run(s) fail only on riscv64 (differential tests)',
    });
  });

  it('records why nothing was compared when the x86_64 side failed, and leaves the verdict', async () => {
    const failed: X86SideResult = {
      ...x86,
      tests: null,
      smokeTests: [],
      error: 'the x86_64 build failed at `make`',
    };
    const update = await runPortNode(
      differentialNode,
      verifiedState(true),
      fakePortServices(new FakeSandbox()),
      {
        value: failed,
      },
    );
    expect(update.differential).toMatchObject({
      ran: false,
      reason: 'the x86_64 build failed at `make`',
      rows: [],
    });
    expect(update.verification?.reason).toBe('1 riscv64 program');
  });
});
