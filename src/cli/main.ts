import { Command, CommanderError } from 'commander';
import { version } from '../version.ts';
import type { CliContext } from './CliContext.ts';
import { type CommandRegistration, commands } from './commands.ts';
import { ExitCode } from './exitCodes.ts';
import { UsageError } from './UsageError.ts';
import { withRepoAlias } from './withRepoAlias.ts';

/** The program with the commands `argv` needs (see registrationsFor). */
export async function buildProgram(ctx: CliContext, argv: readonly string[]): Promise<Command> {
  const program = new Command('rvport')
    .description('Port a source repository to RISC-V (riscv64 Linux) and prove it.')
    .version(version)
    .option('-v, --verbose', 'more detail on stderr')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.out(s), writeErr: (s) => ctx.err(s) });
  for (const register of await registrationsFor(argv.slice(2))) register(program, ctx);
  return program;
}

/**
 * The invoked command alone; none for `--version`; all of them for help, a mistyped command or
 * none (commander lists them, or suggests the nearest). rvport's own options take no value, so
 * the first argument that is not an option names the command.
 */
async function registrationsFor(args: readonly string[]): Promise<CommandRegistration[]> {
  const end = args.indexOf('--');
  const named = (end === -1 ? args : args.slice(0, end)).find((a) => !a.startsWith('-'));
  const invoked = commands.find((c) => c.name === named);
  if (invoked) return [await invoked.load()];
  const versionOnly = named === undefined && args.some((a) => a === '-V' || a === '--version');
  if (versionOnly && !args.some((a) => a === '-h' || a === '--help')) return [];
  return Promise.all(commands.map((c) => c.load()));
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
    const args = withRepoAlias(argv);
    await (await buildProgram(ctx, args)).parseAsync(args);
    return ctx.exitCode;
  } catch (error) {
    return reportError(error, ctx);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
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
