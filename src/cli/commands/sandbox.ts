import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import {
  cleanupStale,
  createSandbox,
  emulatorStatus,
  evaluateHost,
  findImages,
  fixCommands,
  type ImageRecord,
  imageKeys,
  listImages,
  listInstances,
  loadUserlandProofs,
  openSandbox,
  probeHost,
  readImageRecord,
  removeTree,
  SANDBOX_MODES,
  type SandboxMode,
  type SetupResult,
  sandboxPaths,
  setupSandbox,
} from '../../sandbox/index.ts';
import type { CliContext } from '../CliContext.ts';
import { ExitCode } from '../exitCodes.ts';
import { UsageError } from '../UsageError.ts';

interface CommonOptions {
  json?: boolean;
  mode?: string;
  suite?: string;
}

/**
 * `rvport sandbox setup | status | exec -- CMD… | shell | destroy`. Exit codes: 0 success; 1 the
 * host is not ready (the message says what to run), a setup failure, or a command that failed
 * inside (its own status is in the message and in `--json`); 130 interrupted.
 */
export function registerSandboxCommand(program: Command, ctx: CliContext): void {
  const sandbox = program.command('sandbox').description('provision, inspect and use the riscv64 sandbox');

  sandbox
    .command('setup')
    .description('check and prepare the host, then provision (or reuse) the cached riscv64 images')
    .option(
      '--mode <mode>',
      'native-userland (all images: x86_64 compilers and userland inside, accelerated as fallback), accelerated (x86_64 cross compilers inside) or emulated',
      'native-userland',
    )
    .option('--suite <suite>', 'Debian suite of the rootfs', 'trixie')
    .option('--mirror <url>', "Debian mirror (default: the one in this machine's apt sources)")
    .option('--rust', 'also the x86_64 Rust toolchain for accelerated Cargo builds (downloads Rust)')
    .option('--json', 'machine-readable result on stdout')
    .action(async (options: CommonOptions & { mirror?: string; rust?: boolean }) => {
      const mode = parseMode(options.mode);
      const result = await setupSandbox({
        mode,
        suite: options.suite,
        mirror: options.mirror,
        ...(options.rust ? { rust: true } : {}),
        signal: ctx.signal,
        onProgress: (line) => ctx.err(`${line}\n`),
      });
      ctx.out(
        options.json ? `${JSON.stringify(setupSummary(result, mode), null, 2)}\n` : formatSetup(result, mode),
      );
    });

  sandbox
    .command('status')
    .description('images, keys, sizes, modes, binfmt and host checks')
    .option('--suite <suite>', 'Debian suite of the rootfs', 'trixie')
    .option('--json', 'machine-readable result on stdout')
    .action(async (options: CommonOptions) => {
      const status = await sandboxStatus(options.suite ?? 'trixie');
      ctx.out(options.json ? `${JSON.stringify(status, null, 2)}\n` : formatStatus(status));
    });

  sandbox
    .command('exec')
    .description('run a command in a throwaway instance (network off)')
    .argument('<command...>', 'the command and its arguments (after --)')
    .option('--mode <mode>', 'native-userland, accelerated or emulated', 'accelerated')
    .option('--suite <suite>', 'Debian suite of the rootfs', 'trixie')
    .option('--instance <id>', 'run in this kept instance instead of a new one')
    .option('--keep', 'keep the new instance (its id is printed on stderr)')
    .option('--network', 'allow network access')
    .option('--rust', 'accelerated mode with the x86_64 cargo and rustc (the Rust layer)')
    .option('--cwd <dir>', 'working directory inside', '/build')
    .option('--timeout <seconds>', 'kill the command and its children after this long')
    .option('--json', 'machine-readable result on stdout (the output is captured, not streamed)')
    .action(
      async (
        command: string[],
        options: CommonOptions & {
          instance?: string;
          keep?: boolean;
          network?: boolean;
          rust?: boolean;
          cwd: string;
          timeout?: string;
        },
      ) => {
        const timeoutMs = parseTimeout(options.timeout);
        const box = options.instance
          ? await openSandbox(options.instance)
          : await createSandbox({
              mode: parseMode(options.mode),
              suite: options.suite,
              keep: options.keep,
              ...(options.rust ? { rust: true } : {}),
            });
        if (options.keep && !options.instance) ctx.err(`rvport: instance ${box.id} kept\n`);
        try {
          const result = await box.run(command, {
            cwd: options.cwd,
            network: options.network,
            timeoutMs,
            signal: ctx.signal,
            onStdout: options.json ? undefined : (c) => ctx.out(c.toString()),
            onStderr: options.json ? undefined : (c) => ctx.err(c.toString()),
          });
          if (options.json)
            ctx.out(`${JSON.stringify({ instance: box.id, mode: box.mode, ...result }, null, 2)}\n`);
          if (result.aborted) ctx.exitCode = ExitCode.Interrupted;
          else if (result.exitCode !== 0) {
            ctx.err(`rvport: ${describeFailure(command, result)}\n`);
            ctx.exitCode = ExitCode.Failure;
          }
        } finally {
          if (!options.keep && !options.instance) await box.destroy();
        }
      },
    );

  sandbox
    .command('shell')
    .description('an interactive shell in a throwaway instance')
    .option('--mode <mode>', 'native-userland, accelerated or emulated', 'accelerated')
    .option('--suite <suite>', 'Debian suite of the rootfs', 'trixie')
    .option('--instance <id>', 'enter this kept instance')
    .option('--network', 'allow network access')
    .action(async (options: CommonOptions & { instance?: string; network?: boolean }) => {
      const box = options.instance
        ? await openSandbox(options.instance)
        : await createSandbox({ mode: parseMode(options.mode), suite: options.suite });
      try {
        const argv = box.hostCommand(['/bin/bash', '-l'], { network: options.network });
        // the terminal itself goes to the shell, so this one child is not run through runProcess
        const code = await new Promise<number>((resolve, reject) => {
          const child = spawn(argv[0] as string, argv.slice(1), {
            stdio: 'inherit',
            env: {
              PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
              HOME: '/root',
              LANG: 'C.UTF-8',
              TERM: process.env.TERM ?? 'xterm',
            },
          });
          child.on('error', reject);
          child.on('exit', (c, s) => resolve(c ?? (s ? 128 : 1)));
        });
        ctx.exitCode = code === 0 ? ExitCode.Success : ExitCode.Failure;
      } finally {
        if (!options.instance) await box.destroy();
      }
    });

  sandbox
    .command('destroy')
    .description('remove sandbox instances and the cached images')
    .option('--instance <id>', 'remove only this instance')
    .option('--keep-images', 'remove the instances but keep the cached images')
    .option('--json', 'machine-readable result on stdout')
    .action(async (options: { instance?: string; keepImages?: boolean; json?: boolean }) => {
      const paths = sandboxPaths();
      const removed: string[] = [];
      if (options.instance) {
        await (await openSandbox(options.instance)).destroy();
        removed.push(options.instance);
      } else {
        await cleanupStale(paths);
        for (const record of await listInstances(paths)) {
          await removeTree(paths.instance(record.id));
          removed.push(record.id);
        }
        if (!options.keepImages) {
          for (const image of await listImages(paths)) removed.push(image.key);
          await removeTree(paths.images);
        }
      }
      ctx.out(
        options.json
          ? `${JSON.stringify({ removed }, null, 2)}\n`
          : `removed: ${removed.join(' ') || 'nothing'}\n`,
      );
    });
}

function parseMode(mode: string | undefined): SandboxMode {
  const value = mode ?? 'accelerated';
  if (!(SANDBOX_MODES as readonly string[]).includes(value)) {
    throw new UsageError(`--mode must be one of ${SANDBOX_MODES.join(', ')} (got "${value}")`);
  }
  return value as SandboxMode;
}

function parseTimeout(timeout: string | undefined): number | undefined {
  if (timeout === undefined) return undefined;
  const seconds = Number(timeout);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--timeout must be a positive number of seconds (got "${timeout}")`);
  return seconds * 1000;
}

function describeFailure(
  command: readonly string[],
  result: { exitCode: number; timedOut: boolean; commandNotFound: boolean },
): string {
  if (result.commandNotFound) return `command not found in the sandbox: ${command[0]}`;
  if (result.timedOut) return `${command[0]} timed out and was killed with all its children`;
  return `${command[0]} exited with status ${result.exitCode}`;
}

function imageSummary(image: ImageRecord | undefined) {
  if (!image) return undefined;
  return {
    key: image.key,
    kind: image.kind,
    treeBytes: image.treeBytes,
    tarballBytes: image.tarballBytes,
    provisionSeconds: image.provisionSeconds,
    refusedReason: image.refusedReason,
  };
}

function setupSummary(result: SetupResult, mode: SandboxMode) {
  return {
    mode,
    suite: result.suite,
    durationMs: Math.round(result.durationMs),
    selfTest: result.selfTest.split('\n'),
    images: [result.rootfs, result.tools, result.accel, result.nativeTools, result.native]
      .filter(Boolean)
      .map(imageSummary),
  };
}

function formatSetup(result: SetupResult, mode: SandboxMode): string {
  const lines = [
    `sandbox ready for ${mode} mode (${result.suite}, ${(result.durationMs / 1000).toFixed(1)} s)`,
  ];
  lines.push(`  a fresh instance says: ${result.selfTest.split('\n').join(', ')}`);
  for (const image of [result.rootfs, result.tools, result.accel, result.nativeTools, result.native]) {
    if (image)
      lines.push(
        `  ${image.key}  ${mib(image.treeBytes)}${image.tarballBytes ? `, ${mib(image.tarballBytes)} compressed` : ''}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

async function sandboxStatus(suite: string) {
  const paths = sandboxPaths();
  const facts = await probeHost();
  const checks = evaluateHost(facts);
  const images = await findImages(undefined, suite);
  const modes = {
    emulated: images.rootfs ? 'ready' : 'not provisioned',
    accelerated: images.accel?.refusedReason
      ? `refused: ${images.accel.refusedReason}`
      : images.accel && images.tools && images.rootfs
        ? 'ready'
        : 'not provisioned',
    'native-userland': images.native?.refusedReason
      ? `refused: ${images.native.refusedReason}`
      : images.native && images.nativeTools && images.rootfs
        ? `ready (${images.native.swapped?.length ?? 0} programs swapped)`
        : 'not provisioned',
  };
  const keys = imageKeys(suite);
  const proofs = Object.entries(loadUserlandProofs().proofs);
  const current = proofs.filter(
    ([, p]) => p.layers.accelerated === keys.accel && p.layers['native-userland'] === keys.native,
  );
  return {
    home: paths.root,
    suite,
    keys,
    modes,
    // made on first use of `port --differential`, never by setup
    differential: (await readImageRecord(paths, keys.x86Rootfs))
      ? 'ready'
      : 'not provisioned (made on the first port with --differential)',
    // the committed proof table (src/sandbox/proof): which packages `--mode auto` builds natively
    proofs: {
      identical: current
        .filter(([, p]) => p.identical && p.sourceTree && p.result === 'verified')
        .map(([name]) => name),
      different: current.filter(([, p]) => !p.identical).map(([name]) => name),
      // identical, but without the source or of a port that stopped early: not used
      unused: current
        .filter(([, p]) => p.identical && (!p.sourceTree || p.result !== 'verified'))
        .map(([name]) => name),
      otherLayers: proofs.length - current.length,
    },
    emulator: await emulatorStatus(paths, keys.tools),
    images: (await listImages(paths)).map(imageSummary),
    instances: await listInstances(paths),
    binfmt: facts.binfmt,
    hostReady: checks.every((c) => c.ok),
    hostChecks: checks,
    fix: fixCommands(checks),
  };
}

function formatStatus(status: Awaited<ReturnType<typeof sandboxStatus>>): string {
  const lines = [`sandbox folder: ${status.home}`, `suite: ${status.suite}`];
  lines.push(
    `emulated mode: ${status.modes.emulated}`,
    `accelerated mode: ${status.modes.accelerated}`,
    `native-userland mode: ${status.modes['native-userland']}`,
    `differential tests (x86_64 build root): ${status.differential}`,
    `riscv64 programs run under: ${status.emulator}`,
    `native-userland proofs for these layers: identical for ${status.proofs.identical.join(', ') || 'no package'}; different for ${status.proofs.different.join(', ') || 'no package'}${status.proofs.unused.length ? `; not used (no source tree, or the port was not verified): ${status.proofs.unused.join(', ')}` : ''}${status.proofs.otherLayers ? `; ${status.proofs.otherLayers} made with other layers` : ''}`,
  );
  lines.push('images:');
  for (const image of status.images) {
    if (image)
      lines.push(
        `  ${image.key}  ${mib(image.treeBytes)}${image.tarballBytes ? `, ${mib(image.tarballBytes)} compressed` : ''}`,
      );
  }
  if (status.images.length === 0) lines.push('  (none; run: rvport sandbox setup)');
  lines.push(
    `instances: ${status.instances.length === 0 ? 'none' : status.instances.map((i) => `${i.id} (${i.mode}${i.keep ? ', kept' : ''})`).join(', ')}`,
  );
  lines.push('host:');
  for (const check of status.hostChecks) lines.push(`  ${check.ok ? 'ok ' : 'NO '} ${check.detail}`);
  if (status.fix.length > 0) lines.push('to fix the host, run:', ...status.fix.map((c) => `  ${c}`));
  return `${lines.join('\n')}\n`;
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MiB`;
}
