import { describe, expect, it } from 'vitest';
import type { ValidBatchEntry } from './BatchEntry.ts';
import { type FinishedPortProcess, readPortResult } from './readPortResult.ts';

const entry: ValidBatchEntry = { key: 'debian:sl', line: 2, source: 'debian:sl', name: 'sl', invalid: null };
const at = () => new Date('2026-11-30T12:00:00Z');
const run = (over: Partial<FinishedPortProcess>): FinishedPortProcess => ({
  exitCode: 0,
  signal: null,
  stdout: '',
  stderr: '',
  wallMs: 1500,
  timedOut: false,
  ...over,
});
const portJson = {
  result: 'verified',
  exitCode: 0,
  cacheHit: false,
  message: 'verified: 1 riscv64 artifact',
  buildSystem: 'make',
  attempts: 1,
  errorCategory: 'DEPENDENCY',
  tests: { ran: false, passed: 0, failed: 0 },
  llm: { calls: 2, inputTokens: 10, outputTokens: 5, costUsd: 0.25 },
};

describe('readPortResult', () => {
  it("reads the port's JSON result", () => {
    expect(readPortResult(entry, run({ stdout: JSON.stringify(portJson) }), 'local', at)).toEqual({
      kind: 'finished',
      result: {
        key: 'debian:sl',
        line: 2,
        source: 'debian:sl',
        name: 'sl',
        verdict: 'verified',
        exitCode: 0,
        buildSystem: 'make',
        errorCategory: 'DEPENDENCY',
        attempts: 1,
        wallMs: 1500,
        llm: { calls: 2, costUsd: 0.25 },
        cacheHit: false,
        tests: { ran: false, passed: 0, failed: 0 },
        message: 'verified: 1 riscv64 artifact',
        worker: 'local',
        finishedAt: '2026-11-30T12:00:00.000Z',
      },
    });
  });

  it('keeps the count of failures only on riscv64 of differential tests that ran, and nothing else', () => {
    const read = (differential: unknown) => {
      const outcome = readPortResult(
        entry,
        run({ stdout: JSON.stringify({ ...portJson, differential }) }),
        'local',
        at,
      );
      return outcome.kind === 'finished' ? outcome.result.riscv64OnlyFailures : 'not finished';
    };
    expect(read({ ran: true, riscv64Only: 3, x86Only: 0 })).toBe(3);
    expect(read({ ran: false, riscv64Only: 0 })).toBeUndefined();
    expect(read({ ran: true, riscv64Only: 'many' })).toBeUndefined();
    expect(read({ ran: true, riscv64Only: -1 })).toBeUndefined();
    expect(read(null)).toBeUndefined();
  });

  it('keeps escalations and cache hits (no state: no build system)', () => {
    const escalated = readPortResult(
      entry,
      run({ exitCode: 1, stdout: JSON.stringify({ ...portJson, result: 'escalated', exitCode: 1 }) }),
      'w1',
    );
    expect(escalated).toMatchObject({
      kind: 'finished',
      result: { verdict: 'escalated', exitCode: 1, worker: 'w1' },
    });
    const hit = readPortResult(
      entry,
      run({ stdout: JSON.stringify({ result: 'verified', exitCode: 0, cacheHit: true, message: 'hit' }) }),
      'local',
    );
    expect(hit).toMatchObject({
      result: { verdict: 'verified', cacheHit: true, buildSystem: null, attempts: 0 },
    });
  });

  it('treats exit 130 as interrupted (the port stays resumable)', () => {
    expect(readPortResult(entry, run({ exitCode: 130 }), 'local')).toEqual({
      kind: 'interrupted',
      wallMs: 1500,
    });
  });

  it('reports a time-out before anything else', () => {
    expect(
      readPortResult(entry, run({ exitCode: 130, timedOut: true, wallMs: 61_000 }), 'local'),
    ).toMatchObject({
      result: { verdict: 'timed_out', message: 'stopped at the job time-out after 61 s' },
    });
  });

  it("takes the port's one-line refusal as an invalid entry", () => {
    const refused = run({ exitCode: 1, stderr: 'rvport: no such file or directory: /x\n' });
    expect(readPortResult(entry, refused, 'local')).toMatchObject({
      result: { verdict: 'invalid', message: 'no such file or directory: /x' },
    });
  });

  it('calls a port that ended without a result crashed, with the end of its stderr', () => {
    const killed = run({ exitCode: 128, signal: 'SIGKILL', stderr: '» build\n  [build] $ make\n' });
    expect(readPortResult(entry, killed, 'local')).toMatchObject({
      result: {
        verdict: 'crashed',
        message: 'the port ended without a result (killed by SIGKILL): » build | [build] $ make',
      },
    });
  });
});
