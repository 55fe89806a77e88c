import { describe, expect, it } from 'vitest';
import type { PortResult } from '../port/run/runPort.ts';
import type { AuditEvent } from '../port/state/PortState.ts';
import { anError, portState } from '../port/testing/portStateFixture.ts';
import { describePortResult, lastErrorJson } from './describePortResult.ts';

const reason =
  'no fix available without an LLM: the recovery heuristics could not repair the DEPENDENCY error in the configure phase';
const audit = (n: number): AuditEvent[] =>
  Array.from({ length: n }, (_, i) => ({
    at: `2026-12-01T10:00:${String(i).padStart(2, '0')}.000Z`,
    node: i % 2 ? 'build' : 'fix',
    event: `event-${i + 1}`,
    ...(i === n - 1 ? { detail: 'configure: DEPENDENCY' } : {}),
  }));

function escalated(overrides: Parameters<typeof portState>[0]): PortResult {
  const state = portState({ buildStatus: 'ESCALATED', escalationReason: reason, ...overrides });
  return {
    kind: 'escalated',
    exitCode: 1,
    outDir: '/tmp/out/libfoo',
    cacheHit: false,
    resumed: false,
    state,
    files: { written: [] },
    message: `escalated: ${reason}`,
  };
}

describe('describePortResult', () => {
  it('shows the last error line and the last 10 audit events of an escalated port before escalation.md', () => {
    const error = {
      ...anError(
        'DEPENDENCY',
        'checking for libfoo... no\nconfigure: error: "libfoo not found"\nSee config.log for details\n',
      ),
      phase: 'configure',
      command: './configure --prefix=/usr',
      evidence: 'configure: error: "libfoo not found"',
    };
    const text = describePortResult(escalated({ errors: [anError('COMPILATION'), error], audit: audit(12) }));
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe(`rvport: escalated: ${reason}`);
    expect(lines[1]).toBe('last error (DEPENDENCY in build/configure: ./configure --prefix=/usr):');
    expect(lines[2]).toBe('  configure: error: "libfoo not found"');
    expect(lines[3]).toBe('last 10 audit events:');
    expect(lines.slice(4, 14)).toEqual(
      Array.from({ length: 10 }, (_, i) => expect.stringContaining(`event-${i + 3}`)),
    );
    expect(lines[13]).toBe('  10:00:11 build: event-12 (configure: DEPENDENCY)');
    expect(lines[14]).toBe('rvport: escalation report: /tmp/out/libfoo/escalation.md');
    expect(lines[15]).toBe('rvport: outputs in /tmp/out/libfoo');
    expect(lines).toHaveLength(16);
  });

  it('takes the last non-empty output line when no rule named the deciding line', () => {
    const text = describePortResult(
      escalated({ errors: [anError('UNKNOWN', 'make: *** [all] Error 2\nld: cannot find -lbar\n\n')] }),
    );
    expect(text).toMatch(/^ {2}ld: cannot find -lbar$/m);
    expect(text).not.toMatch(/audit event/);
  });

  it('prints a hostile build line without its escape sequences', () => {
    const hostile = '\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1b[1Aerror: ok\x1b]0;owned\x07';
    const text = describePortResult(
      escalated({ errors: [{ ...anError('UNKNOWN', hostile), evidence: hostile }] }),
    );
    expect(text).not.toContain('\x1b');
    expect(text).not.toContain('\x07');
    expect(text).toMatch(/^ {2}error: ok$/m);
  });

  it('prints the message and outputs only for other results', () => {
    const result: PortResult = {
      ...escalated({ audit: audit(3) }),
      kind: 'verified',
      exitCode: 0,
      message: 'verified: 1 riscv64 executable',
    };
    expect(describePortResult(result)).toBe(
      'rvport: verified: 1 riscv64 executable\nrvport: outputs in /tmp/out/libfoo\n',
    );
  });
});

describe('lastErrorJson', () => {
  it('gives the deciding line of the last error for port --json, and null without errors', () => {
    const error = {
      ...anError('DEPENDENCY', 'x\ny\n'),
      phase: 'configure',
      evidence: 'configure: error: no foo',
    };
    const state = portState({ errors: [anError('COMPILATION'), error] });
    expect(lastErrorJson(state)).toEqual({
      category: 'DEPENDENCY',
      node: error.node,
      phase: 'configure',
      evidence: 'configure: error: no foo',
    });
    expect(lastErrorJson(portState({ errors: [] }))).toBeNull();
  });
});
