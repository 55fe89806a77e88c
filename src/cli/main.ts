import { Command } from 'commander';
import { version } from '../version.ts';
import type { CliContext } from './CliContext.ts';
import { type CommandRegistration, commands } from './commands.ts';
import { describeError } from './describeError.ts';
import { ExitCode } from './exitCodes.ts';
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
  const named = commandName(args);
  const invoked = commands.find((c) => c.name === named);
  if (invoked) return [await invoked.load()];
  const versionOnly = named === undefined && args.some((a) => a === '-V' || a === '--version');
  if (versionOnly && !args.some((a) => a === '-h' || a === '--help')) return [];
  return Promise.all(commands.map((c) => c.load()));
}

/** The first argument that is not an option (before `--`): the command's name, if any. */
function commandName(args: readonly string[]): string | undefined {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).find((a) => !a.startsWith('-'));
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
  const args = withRepoAlias(argv);
  try {
    await (await buildProgram(ctx, args)).parseAsync(args);
    return ctx.exitCode;
  } catch (error) {
    const { message, exitCode } = describeError(error, {
      command: commandName(args.slice(2)),
      aborted: controller.signal.aborted,
    });
    if (message !== null) ctx.err(`rvport: ${message}\n`);
    return exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
