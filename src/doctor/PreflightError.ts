import type { DoctorCheck } from './DoctorCheck.ts';
import { formatDoctor } from './formatDoctor.ts';

/** A port stopped before provisioning because the host lacks something; `checks` are the failures. */
export class PreflightError extends Error {
  override name = 'PreflightError';
  readonly code = 'preflight-failed';
  constructor(readonly checks: readonly DoctorCheck[]) {
    super(`the host is not ready for a port:\n${formatDoctor(checks).trimEnd()}`);
  }
}

/** By name, so two copies of the package still agree. */
export function isPreflightError(error: unknown): error is PreflightError {
  return error instanceof Error && error.name === 'PreflightError' && 'checks' in error;
}
