import { type Command, Option } from 'commander';
import { isPreflightError } from '../../doctor/PreflightError.ts';
import { isEngineError } from '../../engine/index.ts';
import type { RequestedMode } from '../../port/index.ts';
import { DEFAULT_TEST_TIMEOUT_MS, runPort } from '../../port/index.ts';
import { isSandboxError } from '../../sandbox/index.ts';
import type { SourceOrigin } from '../../sources/index.ts';
import { isSourceError } from '../../sources/index.ts';
import { ALLOW_PRIVATE_ADDRESSES_HELP } from '../allowPrivateAddresses.ts';
import type { CliContext } from '../CliContext.ts';
import { describePortResult, lastErrorJson } from '../describePortResult.ts';
import { ExitCode } from '../exitCodes.ts';
import { nonNegative, positiveInt } from '../numberOptions.ts';
import { PortProgress } from '../PortProgress.ts';
import { UsageError } from '../UsageError.ts';

/** The flags of `rvport port` as commander parses them. */
interface PortFlags {
  maxAttempts: number;
  force?: boolean;
  optimize?: boolean;
  package?: boolean;
  resume?: boolean;
  restart?: boolean;
  mode: RequestedMode;
  out: string;
  offline?: boolean;
  costCap?: number;
  keepSandbox?: boolean;
  json?: boolean;
  timeout?: number;
  testTimeout?: number;
  goProxy?: string;
  cargoRegistry?: string;
  differential?: boolean;
  replay?: boolean;
  target?: string;
  allowPrivateAddresses?: boolean;
  sourceOrigin?: SourceOrigin;
}

export function registerPortCommand(program: Command, ctx: CliContext): void {
  program
    .command('port <source>')
    .description('port SOURCE to riscv64 and prove it (git URL, directory, tarball, debian:NAME[=VERSION])')
    .option('--max-attempts <n>', 'attempts before escalating', positiveInt, 5)
    .option('--force', 'ignore the recipe cache')
    .option('--optimize', 'performance mode after a verified port')
    .option('--package', 'also write NAME-riscv64.zip (artifacts, recipe, report, manifest)')
    .option('--resume', 'continue an interrupted run of this source (the default)')
    .option('--restart', 'discard an interrupted run of this source and start again')
    .addOption(
      new Option(
        '--mode <mode>',
        'sandbox mode; auto: native-userland where proven identical for the package, else accelerated',
      )
        .choices(['auto', 'native-userland', 'accelerated', 'emulated'])
        .default('auto'),
    )
    .option('--out <dir>', 'where the outputs go (OUT/NAME/)', './rvport-out')
    .option('--offline', 'no LLM calls even if a provider is configured')
    .option(
      '--cost-cap <usd>',
      'LLM cost limit of the port in dollars (default: 1, or the config file)',
      nonNegative,
    )
    .option('--keep-sandbox', 'keep the sandbox instance after the port')
    .option('--timeout <seconds>', 'time limit of one build command', positiveInt)
    .option(
      '--test-timeout <seconds>',
      `time limit of each command of the package's tests (default ${DEFAULT_TEST_TIMEOUT_MS / 1000})`,
      positiveInt,
    )
    .option('--differential', 'also build and test the same plan for x86_64 and compare per test')
    .option('--no-differential', 'no differential tests (the default)')
    .option('--replay', 'replay build.sh in a fresh instance as the last step, however long the build took')
    .option('--no-replay', 'no replay (the default replays when the build took under 10 minutes)')
    .option(
      '--target <target>',
      'build on a riscv64 machine over SSH: ssh://user@host[:port] or a name from rvport target add',
    )
    .option('--json', 'machine-readable result on stdout')
    .option('--allow-private-addresses', ALLOW_PRIVATE_ADDRESSES_HELP)
    // set by rvport worker for a queue job's SOURCE: no ssh keys, no redirects (not for people)
    .addOption(new Option('--source-origin <origin>').choices(['command-line', 'queue']).hideHelp())
    .option(
      '--go-proxy <url>',
      'fetch Go modules from this module proxy, checked against go.sum (default: $RVPORT_GOPROXY)',
    )
    .option(
      '--cargo-registry <url>',
      "fetch crates from this registry's sparse index, checked against Cargo.lock (default: $RVPORT_CARGO_REGISTRY)",
    )
    .action(async (source: string, opts: PortFlags) => {
      if (opts.resume && opts.restart) throw new UsageError('--resume and --restart exclude each other');
      if (opts.target && opts.mode !== 'auto')
        throw new UsageError('--mode chooses a local sandbox mode; a --target machine is native riscv64');
      const progress = new PortProgress(process.stderr);
      try {
        const result = await runPort(
          {
            source,
            ...(opts.sourceOrigin ? { sourceOrigin: opts.sourceOrigin } : {}),
            ...(opts.allowPrivateAddresses ? { allowPrivateAddresses: true } : {}),
            maxAttempts: opts.maxAttempts,
            force: !!opts.force,
            optimize: !!opts.optimize,
            package: !!opts.package,
            restart: !!opts.restart,
            mode: opts.mode,
            out: opts.out,
            offline: !!opts.offline,
            ...(opts.costCap !== undefined ? { costCapUsd: opts.costCap } : {}),
            keepSandbox: !!opts.keepSandbox,
            ...(opts.timeout ? { commandTimeoutMs: opts.timeout * 1000 } : {}),
            ...(opts.testTimeout ? { testTimeoutMs: opts.testTimeout * 1000 } : {}),
            ...(opts.goProxy ? { goProxy: opts.goProxy } : {}),
            ...(opts.cargoRegistry ? { cargoRegistry: opts.cargoRegistry } : {}),
            ...(opts.differential !== undefined ? { differential: opts.differential } : {}),
            ...(opts.replay !== undefined ? { replay: opts.replay } : {}),
            ...(opts.target ? { target: opts.target } : {}),
          },
          { signal: ctx.signal, progress: progress.handle },
        );
        progress.stop();
        ctx.exitCode = result.exitCode;
        if (opts.json) {
          const s = result.state;
          ctx.out(
            `${JSON.stringify(
              {
                result: result.kind,
                exitCode: result.exitCode,
                outDir: result.outDir,
                cacheHit: result.cacheHit,
                resumed: result.resumed,
                message: result.message,
                files: result.files,
                ...(s
                  ? {
                      buildSystem: s.plan?.buildSystem ?? s.packageAnalysis?.buildSystem ?? null,
                      mode: s.options.mode,
                      modeReason: s.options.modeReason ?? null,
                      verification: s.verification,
                      attempts: s.attemptCount,
                      errorCategory: s.errors.at(-1)?.category ?? null,
                      lastError: lastErrorJson(s),
                      // per-test results are in state.json (a batch keeps this JSON per entry)
                      tests: s.tests ? { ...s.tests, cases: undefined } : null,
                      differential: s.differential
                        ? {
                            ran: s.differential.ran,
                            reason: s.differential.reason,
                            riscv64Only: s.differential.riscv64Only,
                            x86Only: s.differential.x86Only,
                            durationMs: s.differential.durationMs,
                          }
                        : null,
                      replay: s.replay ?? null,
                      timings: s.timings,
                      llm: s.llm,
                    }
                  : {}),
              },
              null,
              2,
            )}\n`,
          );
        }
        ctx.err(describePortResult(result));
      } catch (error) {
        progress.stop();
        throw error; // described by describeError (a bad SOURCE, the host, the sandbox, a checkpoint)
      }
    });
}
