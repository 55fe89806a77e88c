import { isSandboxError } from '../sandbox/index.ts';
import type { CliContext } from './CliContext.ts';
import { ExitCode } from './exitCodes.ts';
import { UsageError } from './UsageError.ts';

/** Sandbox errors are expected failures: one clear message and what to run, exit 1. */
export async function withSandboxErrors(ctx: CliContext, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!isSandboxError(error)) throw error;
    if (ctx.signal.aborted) {
      ctx.err('rvport: interrupted\n');
      ctx.exitCode = ExitCode.Interrupted;
      return;
    }
    const fix = error.fix ? `\nto fix it, run:\n${error.fix.replace(/^/gm, '  ')}` : '';
    throw new UsageError(`${error.message}${fix}`);
  }
}
