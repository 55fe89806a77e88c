/** Exit codes shared by every command (SPEC section 2). */
export const ExitCode = {
  Success: 0,
  /** Failure, escalation or bad input. */
  Failure: 1,
  /** The port succeeded but `--package` could not write the zip. */
  PackageFailed: 2,
  /** The build succeeded but no riscv64 output was proven. */
  NotVerified: 3,
  /** Interrupted; the run stays resumable. */
  Interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
