import { describe, expect, it } from 'vitest';
import { allPassed } from './DoctorCheck.ts';
import { formatDoctor } from './formatDoctor.ts';

describe('formatDoctor', () => {
  it('prints one line per check and the fix under each that is not ok', () => {
    const checks = [
      { id: 'a', status: 'ok' as const, detail: 'fine' },
      { id: 'b', status: 'fail' as const, detail: 'broken', fix: 'repair it' },
      { id: 'c', status: 'warn' as const, detail: 'shaky', fix: 'steady it' },
      { id: 'd', status: 'info' as const, detail: 'later' },
    ];
    expect(formatDoctor(checks)).toBe(
      'ok    fine\nFAIL  broken\n    fix: repair it\nwarn  shaky\n    fix: steady it\ninfo  later\n',
    );
    expect(allPassed(checks)).toBe(false);
    expect(allPassed(checks.filter((c) => c.status !== 'fail'))).toBe(true);
  });
});
