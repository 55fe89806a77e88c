import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';

/** Why a sandbox operation failed; `code` lets callers (and the CLI) react without parsing text. */
export type SandboxErrorCode =
  | 'host-not-ready'
  | 'no-mirror'
  | 'provision-failed'
  | 'image-missing'
  /** An image's tree no longer matches the manifest taken when it was made. */
  | 'image-changed'
  | 'toolchain-mismatch'
  | 'instance-missing'
  | 'instance-busy'
  | 'sandbox-failed'
  /** An SSH target that is not `ssh://user@host[:port]` or a known target's name. */
  | 'bad-target'
  /** The SSH target's host key is not in rvport's known_hosts (never asked interactively). */
  | 'host-key-unknown'
  /** The SSH target presents another host key than the one pinned for it. */
  | 'host-key-changed'
  /** The SSH target could not be reached or refused the key. */
  | 'target-unreachable';

export interface SandboxErrorOptions extends RvportErrorOptions {
  /** What to do about it, when there is something to do (e.g. the command to run). */
  fix?: string;
}

export class SandboxError extends RvportError {
  override name = 'SandboxError';
  declare readonly code: SandboxErrorCode;
  /** What to do about it, when there is something to do (e.g. the command to run). */
  readonly fix?: string;
  /**
   * `options` as a plain string is the fix, the older form: only src/port/runPort.ts still uses it
   * (left while src/port/ is being reorganised); new code passes `{ fix }`.
   */
  constructor(code: SandboxErrorCode, message: string, options?: SandboxErrorOptions) {
    const { fix, ...rest } = options ?? {};
    super(code, message, rest);
    if (fix !== undefined) this.fix = fix;
  }
}

/** A layered mode that provisioning refused (the toolchains of the two trees do not match). */
export function modeRefused(mode: string, reason: string): SandboxError {
  return new SandboxError('toolchain-mismatch', `${mode} mode refused: ${reason}`, {
    fix: 'rvport sandbox setup --mode emulated   (and --mode emulated for exec and port)',
  });
}

export function isSandboxError(error: unknown): error is SandboxError {
  return isRvportErrorNamed(error, ['SandboxError']);
}
