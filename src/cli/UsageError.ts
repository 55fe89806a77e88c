import { ExitCode } from './exitCodes.ts';

/** Bad input from the user: printed as one clear line, never as a stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.Failure,
  ) {
    super(message);
  }
}
