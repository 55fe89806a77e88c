import type { DoctorCheck, DoctorStatus } from './DoctorCheck.ts';

const LABEL: Record<DoctorStatus, string> = { ok: 'ok  ', fail: 'FAIL', warn: 'warn', info: 'info' };

/** One line per check, and under each that is not ok the command that fixes it. */
export function formatDoctor(checks: readonly DoctorCheck[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    lines.push(`${LABEL[c.status]}  ${c.detail}`);
    if (c.status !== 'ok' && c.fix) lines.push(`    fix: ${c.fix}`);
  }
  return `${lines.join('\n')}\n`;
}
