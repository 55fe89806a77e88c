import { isRvportErrorNamed, RvportError, type RvportErrorOptions } from '../errors/index.ts';
import { ExitCode } from './exitCodes.ts';

export interface UsageErrorOptions extends RvportErrorOptions {
  /** The exit code (default 1). */
  exitCode?: number;
}

/** Bad input from the user: printed as one clear line, never as a stack trace (one code: `usage`). */
export class UsageError extends RvportError {
  override name = 'UsageError';
  readonly exitCode: number;
  constructor(message: string, { exitCode = ExitCode.Failure, ...options }: UsageErrorOptions = {}) {
    super('usage', message, options);
    this.exitCode = exitCode;
  }
}

export function isUsageError(error: unknown): error is UsageError {
  return isRvportErrorNamed(error, ['UsageError']);
}
