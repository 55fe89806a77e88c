import type { Command } from 'commander';
import { isReplayError, replayPort } from '../../port/index.ts';
import { SANDBOX_MODES, SandboxError, type SandboxMode } from '../../sandbox/index.ts';
import { isSourceError } from '../../sources/index.ts';
import { ALLOW_PRIVATE_ADDRESSES_HELP } from '../allowPrivateAddresses.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { UsageError } from '../UsageError.ts';

interface ReplayOptions {
  mode?: string;
  allowPrivateAddresses?: boolean;
  json?: boolean;
}

export function registerReplayCommand(program: Command, ctx: CliContext): void {
  program
    .command('replay')
    .description(
      "run a port's build.sh in a fresh sandbox from a fresh copy of the source and check it rebuilds the same artifacts",
    )
    .argument('<dir>', 'the OUT/NAME folder of a port (state.json, build.sh, packages.txt, patches/)')
    .option('--mode <mode>', `sandbox mode (${SANDBOX_MODES.join(', ')}; default: the port's)`)
    .option('--allow-private-addresses', ALLOW_PRIVATE_ADDRESSES_HELP)
    .option('--json', 'machine-readable result on stdout')
    .action(async (dir: string, options: ReplayOptions) => {
      if (options.mode !== undefined && !SANDBOX_MODES.includes(options.mode as SandboxMode))
        throw new UsageError(`replay: --mode is one of ${SANDBOX_MODES.join(', ')}`);
      const result = await replayPort({
        dir,
        ...(options.mode ? { mode: options.mode as SandboxMode } : {}),
        signal: ctx.signal,
        progress: (message) => ctx.err(`rvport: ${message}\n`),
        // state.json is read from a folder: its SOURCE is not one a person typed
        sourceFetch: { rules: { origin: 'state', allowPrivateAddresses: !!options.allowPrivateAddresses } },
      });
      if (options.json)
        ctx.out(`${JSON.stringify({ ...result.record, artifacts: result.comparisons }, null, 2)}\n`);
      else ctx.out(`replayed: ${result.record.replayed}: ${result.record.reason}\n`);
      ctx.exitCode = result.exitCode === 0 ? ExitCode.Success : ExitCode.Failure;
    });
}
