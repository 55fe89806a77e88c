import type { Command } from 'commander';
import { formatProbeReport } from '../../probe/formatProbeReport.ts';
import { hostQemuVersion } from '../../probe/hostQemuVersion.ts';
import { isProbeOutputError } from '../../probe/parseProbeSections.ts';
import { runProbe } from '../../probe/runProbe.ts';
import { createSandbox, SANDBOX_MODES, type Sandbox, type SandboxMode } from '../../sandbox/index.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { terminalSafe } from '../terminalSafe.ts';
import { UsageError } from '../UsageError.ts';

/**
 * `rvport probe [--json] [--mode …] [--target ssh://user@host[:port]|NAME]`: the machine a build
 * is for, probed inside a throwaway sandbox instance, or in a throwaway folder on a remote
 * riscv64 machine. Exit codes: 0 probed; 1 the sandbox is not provisioned (the message says what
 * to run), the target's host key is unknown or changed, the target cannot be reached, the probe
 * failed, or bad input; 130 interrupted.
 */
export function registerProbeCommand(program: Command, ctx: CliContext): void {
  program
    .command('probe')
    .description('the machine a build is for: ISA and extensions, ids, cores, memory, compilers, emulation')
    .option('--mode <mode>', 'sandbox mode: native-userland, accelerated or emulated', 'accelerated')
    .option('--suite <suite>', 'Debian suite of the rootfs', 'trixie')
    .option(
      '--target <target>',
      'a riscv64 machine over SSH: ssh://user@host[:port] or a name from rvport target add',
    )
    .option(
      '--identity <file>',
      "the private key for --target (default: the saved target's, or rvport's own)",
    )
    .option('--json', 'machine-readable result on stdout')
    .action(
      async (options: {
        mode?: string;
        suite?: string;
        json?: boolean;
        target?: string;
        identity?: string;
      }) => {
        const mode = parseMode(options.mode);
        let box: Sandbox;
        if (options.target) {
          box = await createSandbox({
            target: options.target,
            ...(options.identity ? { identity: options.identity } : {}),
          });
        } else {
          if (options.identity) throw new UsageError('--identity goes with --target');
          box = await createSandbox({ mode, suite: options.suite });
        }
        try {
          const report = await runProbe(
            box,
            options.target
              ? { target: 'ssh', mode: 'native', qemuVersion: null }
              : { target: 'local-sandbox', mode, qemuVersion: await hostQemuVersion(ctx.signal) },
            { signal: ctx.signal },
          );
          // every string in the report is the target's text: JSON escapes control characters, the
          // human form has its escape sequences removed
          ctx.out(
            options.json ? `${JSON.stringify(report, null, 2)}\n` : terminalSafe(formatProbeReport(report)),
          );
        } finally {
          await box.destroy();
        }
      },
    );
}

function parseMode(mode: string | undefined): SandboxMode {
  const value = mode ?? 'accelerated';
  if (!(SANDBOX_MODES as readonly string[]).includes(value)) {
    throw new UsageError(`--mode must be one of ${SANDBOX_MODES.join(', ')} (got "${value}")`);
  }
  return value as SandboxMode;
}
