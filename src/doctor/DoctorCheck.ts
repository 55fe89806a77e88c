/**
 * One line of `rvport doctor`: `fail` stops a port (exit 1), `warn` is something that works
 * worse without it (a limit that will not apply, an LLM that cannot be reached), `info` is state
 * a person may want to know (images not provisioned yet).
 */
export type DoctorStatus = 'ok' | 'fail' | 'warn' | 'info';

export interface DoctorCheck {
  id: string;
  status: DoctorStatus;
  detail: string;
  /** The exact command (or action) that fixes it; only when status is not `ok`. */
  fix?: string;
}

export function passed(id: string, detail: string): DoctorCheck {
  return { id, status: 'ok', detail };
}

export function failed(id: string, detail: string, fix: string | undefined): DoctorCheck {
  return { id, status: 'fail', detail, ...(fix ? { fix } : {}) };
}

export function warned(id: string, detail: string, fix: string | undefined): DoctorCheck {
  return { id, status: 'warn', detail, ...(fix ? { fix } : {}) };
}

/** Everything a port needs passed: warnings and information do not count against it. */
export function allPassed(checks: readonly DoctorCheck[]): boolean {
  return checks.every((c) => c.status !== 'fail');
}
