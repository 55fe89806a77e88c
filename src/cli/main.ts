import { Command, CommanderError } from 'commander';
import { version } from '../version.ts';
import type { CliContext } from './CliContext.ts';
import { commandRegistrations } from './commands.ts';
import { ExitCode } from './exitCodes.ts';
import { UsageError } from './UsageError.ts';

export function buildProgram(ctx: CliContext): Command {
  const program = new Command('rvport')
    .description('Port a source repository to RISC-V (riscv64 Linux) and prove it.')
    .version(version)
    .option('-v, --verbose', 'more detail on stderr')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.out(s), writeErr: (s) => ctx.err(s) });
  for (const register of commandRegistrations) register(program, ctx);
  return program;
}

/** Runs the CLI and returns the exit code (the caller sets process.exitCode). */
export async function main(argv: string[]): Promise<number> {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(ExitCode.Interrupted); // second Ctrl+C: leave now
    process.stderr.write(`\nrvport: ${signal} received, saving state…\n`);
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const ctx: CliContext = {
    exitCode: ExitCode.Success,
    signal: controller.signal,
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
  };
  try {
    await buildProgram(ctx).parseAsync(withRepoAlias(argv));
    return ctx.exitCode;
  } catch (error) {
    return reportError(error, ctx);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `rvport --repo SOURCE …` (the seed system's spelling) is `rvport port SOURCE …`. */
export function withRepoAlias(argv: readonly string[]): string[] {
  const args = argv.slice(2);
  const at = args.findIndex((a) => a === '--repo' || a.startsWith('--repo='));
  if (at === -1) return [...argv];
  const arg = args[at] as string;
  const source = arg.startsWith('--repo=') ? [arg.slice('--repo='.length)] : args.slice(at + 1, at + 2);
  const rest = [...args.slice(0, at), ...args.slice(at + (arg.startsWith('--repo=') ? 1 : 2))];
  return [...argv.slice(0, 2), 'port', ...source, ...rest];
}

function reportError(error: unknown, ctx: CliContext): number {
  if (error instanceof CommanderError) {
    // help and version are "errors" in commander's exitOverride; their exit code is 0
    return error.exitCode === 0 ? ExitCode.Success : ExitCode.Failure;
  }
  if (error instanceof UsageError) {
    ctx.err(`rvport: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  ctx.err(`rvport: unexpected error: ${message}\n`);
  return ExitCode.Failure;
}
