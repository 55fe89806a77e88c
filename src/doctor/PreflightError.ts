import { isRvportErrorNamed, RvportError } from '../errors/index.ts';
import type { DoctorCheck } from './DoctorCheck.ts';
import { formatDoctor } from './formatDoctor.ts';

/** A port stopped before provisioning because the host lacks something; `checks` are the failures. */
export class PreflightError extends RvportError {
  override name = 'PreflightError';
  constructor(readonly checks: readonly DoctorCheck[]) {
    super('preflight-failed', `the host is not ready for a port:\n${formatDoctor(checks).trimEnd()}`);
  }
}

export function isPreflightError(error: unknown): error is PreflightError {
  return isRvportErrorNamed(error, ['PreflightError']);
}
