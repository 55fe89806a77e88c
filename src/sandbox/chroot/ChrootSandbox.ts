import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeJsonAtomic } from '../../fs/index.ts';
import { runProcess } from '../../process/runProcess.ts';
import { EMULATOR_CPU } from '../emulator/binfmtRegistration.ts';
import { SandboxError } from '../errors.ts';
import { readFileOverRun, writeFileOverRun } from '../filesOverRun.ts';
import { type CgroupPlacement, createCgroupPlacement } from '../limits/cgroupLimits.ts';
import { resolveLimits } from '../limits/SandboxLimits.ts';
import { watchDisk } from '../limits/watchDisk.ts';
import { checkInstallRequest } from '../packages/checkInstallRequest.ts';
import { isDebDownloadError } from '../packages/downloadDebs.ts';
import { hostResolvedDebs } from '../packages/hostResolvedDebs.ts';
import { INSTALL_ENVIRONMENT } from '../packages/installEnvironment.ts';
import { APT_FRONTEND_DIR } from '../packages/nativeAptPaths.ts';
import { downloadMirror } from '../packages/parseAptUris.ts';
import { removeTree } from '../removeTree.ts';
import {
  SANDBOX_WORKSPACE,
  type Sandbox,
  type SandboxLimitHit,
  type SandboxMode,
  type SandboxRunOptions,
  type SandboxRunResult,
  type SandboxSnapshot,
} from '../Sandbox.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { readSubordinateIds, type SubordinateIds } from '../userns/subordinateIds.ts';
import { giveToSandboxRoot, runAsTreeOwner } from '../userns/treeOwner.ts';
import { copyOutTree } from './copyOutTree.ts';
import { enterProgram } from './enterProgram.ts';
import { INSTANCE_EMULATOR, INSTANCE_RECORD, type InstanceRecord } from './InstanceRecord.ts';
import {
  type InstanceMounts,
  instanceCommand,
  SETUP_FAILED_EXIT,
  SETUP_FAILED_MARK,
  TRANSFER_IN,
  TRANSFER_OUT,
} from './instanceMounts.ts';
/** The environment every command starts from (nothing leaks in from the host). */
export const SANDBOX_BASE_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HOME: '/root',
  LANG: 'C.UTF-8',
  SHELL: '/bin/sh',
};

/** The whole environment of the host processes that assemble an instance. */
const HOST_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
};

/** What a 404 from the archive means for an instance, and the way to fresh lists. */
const STALE_LISTS =
  "the image's package lists are older than the archive: provision the images again (rvport sandbox destroy, then rvport sandbox setup)";
const isStale = (error: unknown) => isDebDownloadError(error) && error.code === 'missing';

/** Default retained output per stream. */
export const DEFAULT_OUTPUT_CAP_BYTES = 256 * 1024;
/** Host-side file operations (copying an upper layer) get this long. */
const HOST_OP_TIMEOUT_MS = 30 * 60_000;

/** Layout of one instance on the host. */
export function instanceLayout(paths: SandboxPaths, id: string) {
  const dir = paths.instance(id);
  return {
    dir,
    record: join(dir, INSTANCE_RECORD),
    upper: join(dir, 'upper'),
    work: join(dir, 'work'),
    merged: join(dir, 'merged'),
    workspace: join(dir, 'build'),
    snapshots: join(dir, 'snapshots'),
    transferIn: join(dir, 'transfer-in'),
    transferOut: join(dir, 'transfer-out'),
  };
}

/**
 * An instance of the chroot backend: an overlay over the cached image, assembled afresh for each
 * command inside new mount, PID (and, unless network is asked for, network) namespaces. Commands
 * of one instance run one at a time, since one upper layer can back only one overlay mount.
 */
export class ChrootSandbox implements Sandbox {
  readonly id: string;
  readonly mode: SandboxMode;
  readonly workspace: string;
  private queue: Promise<unknown> = Promise.resolve();
  private destroyed = false;
  private runCount = 0;
  private subordinateIds: SubordinateIds | undefined;
  private readonly layout: ReturnType<typeof instanceLayout>;

  constructor(
    private readonly paths: SandboxPaths,
    private record: InstanceRecord,
  ) {
    this.id = record.id;
    this.mode = record.mode;
    this.layout = instanceLayout(paths, record.id);
    this.workspace = this.layout.workspace;
  }

  /** The host argv that would run `command`; for interactive use (a shell with the terminal). */
  hostCommand(
    command: readonly string[],
    options: { cwd?: string; network?: boolean; env?: Record<string, string> } = {},
  ): string[] {
    const env = { ...this.baseEnv(), ...this.record.env, ...options.env };
    return instanceCommand(
      this.mounts(options.network ?? false),
      options.cwd ?? SANDBOX_WORKSPACE,
      command,
      env,
    );
  }

  run(command: string | readonly string[], options: SandboxRunOptions = {}): Promise<SandboxRunResult> {
    return this.exclusive(() => this.runNow(command, options));
  }

  async readFile(path: string): Promise<Buffer> {
    const { result, data } = await readFileOverRun((c, o) => this.run(c, o), path);
    if (result.exitCode !== 0) throw this.fileError('read', path, result);
    return data;
  }

  async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    const result = await writeFileOverRun((c, o) => this.run(c, o), path, data, mode);
    if (result.exitCode !== 0) throw this.fileError('write', path, result);
  }

  /**
   * The host copies into a folder no build command ever sees (bound read-only for this copy
   * only), and the copy into place happens inside, with the sandbox's view of its own links.
   */
  copyIn(hostPath: string, sandboxPath: string): Promise<void> {
    return this.exclusive(async () => {
      const name = `in-${randomBytes(6).toString('hex')}`;
      const staged = join(this.layout.transferIn, name);
      try {
        await this.host(['cp', '-a', '--', hostPath, staged]);
        await giveToSandboxRoot(this.ids(), [staged]);
        const result = await this.runNow(
          [
            '/bin/sh',
            '-c',
            'rm -rf -- "$2" && mkdir -p -- "$(dirname -- "$2")" && cp -a -- "$1" "$2"',
            'sh',
            `${TRANSFER_IN}/${name}`,
            sandboxPath,
          ],
          { transfer: true },
        );
        if (result.exitCode !== 0) throw this.fileError('copy in', sandboxPath, result);
      } finally {
        await removeTree(staged);
      }
    });
  }

  /**
   * The sandbox copies into a folder of its own, readable by the host user; the host then takes
   * folders, regular files (no setuid or setgid bits) and links as links, never following one.
   */
  copyOut(sandboxPath: string, hostPath: string): Promise<void> {
    return this.exclusive(async () => {
      const name = `out-${randomBytes(6).toString('hex')}`;
      const staged = join(this.layout.transferOut, name);
      try {
        const result = await this.runNow(
          [
            '/bin/sh',
            '-c',
            'cp -R -P --preserve=mode,timestamps -- "$1" "$2" && chmod -R u+rwX,go+rX,ug-s -- "$2"',
            'sh',
            sandboxPath,
            `${TRANSFER_OUT}/${name}`,
          ],
          { transfer: true },
        );
        if (result.exitCode !== 0) throw this.fileError('copy out', sandboxPath, result);
        await rm(hostPath, { recursive: true, force: true });
        await copyOutTree(staged, hostPath);
      } finally {
        await removeTree(staged).catch(() => undefined);
      }
    });
  }

  /**
   * Packages come in without giving the sandbox the network: apt inside says which package
   * versions it picked (from the image's signed lists, offline); the host looks each one up in its
   * own reading of the image's lists and fetches what those name (hostResolvedDebs: limits, pool
   * paths, sizes and SHA-256 from the host's index), and apt installs them inside, still offline.
   */
  async installPackages(
    packages: readonly string[],
    options: Pick<SandboxRunOptions, 'timeoutMs' | 'signal' | 'onStdout' | 'onStderr' | 'logFile'> = {},
  ): Promise<SandboxRunResult> {
    checkInstallRequest(packages);
    // dpkg without a pty: maintainer scripts write to pipes, which per-build evidence can
    // record (a call whose stderr is a terminal cannot be, and refuses the fast userland).
    // dpkg without an fsync per file (what sbuild and mmdebstrap do in build roots): an instance
    // is thrown away, never recovered after a crash, and the files are the same.
    const aptOptions = [
      '-y',
      '-q',
      '--no-install-recommends',
      '-o',
      'Dpkg::Use-Pty=0',
      '-o',
      'Dpkg::Options::=--force-unsafe-io',
    ];
    // the apt layer's apt-get first (the x86_64 apt, packages/nativeApt.ts), where it has one
    const env = {
      ...INSTALL_ENVIRONMENT,
      PATH: `${APT_FRONTEND_DIR}:${SANDBOX_BASE_ENV.PATH}`,
    };
    const listed = await this.run(['apt-get', 'install', ...aptOptions, '--print-uris', ...packages], {
      ...options,
      env,
    });
    if (listed.exitCode !== 0) return listed;
    let files: string[];
    try {
      files = await hostResolvedDebs({
        aptOutput: listed.stdout,
        requested: packages,
        trees: this.imageTrees(),
        mirror: downloadMirror(this.record.mirror),
        cacheDir: join(this.paths.debCache, 'sandbox-riscv64'),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      const message = `E: ${(error as Error).message}${isStale(error) ? `\nE: ${STALE_LISTS}` : ''}\n`;
      options.onStderr?.(Buffer.from(message));
      return { ...listed, exitCode: 100, stderr: `${listed.stderr}${message}` };
    }
    return this.exclusive(async () => {
      const staged = join(this.layout.transferIn, `debs-${randomBytes(4).toString('hex')}`);
      await mkdir(staged);
      try {
        for (const file of files) await copyFile(file, join(staged, basename(file)));
        const inside = `${TRANSFER_IN}/${basename(staged)}`;
        const script = [
          `for f in "${inside}"/*.deb; do [ -e "$f" ] && cp -- "$f" /var/cache/apt/archives/; done`,
          `apt-get install ${aptOptions.join(' ')} --no-download "$@"`,
          'rc=$?',
          'rm -f /var/cache/apt/archives/*.deb',
          'exit $rc',
        ].join('\n');
        return await this.runNow(['/bin/sh', '-c', script, 'sh', ...packages], {
          ...options,
          env,
          transfer: true,
        });
      } finally {
        await removeTree(staged);
      }
    });
  }

  snapshot(): Promise<SandboxSnapshot> {
    return this.exclusive(async () => {
      const snapshot = {
        id: `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`,
        createdAt: new Date().toISOString(),
      };
      const dir = join(this.layout.snapshots, snapshot.id);
      const temp = `${dir}.partial`;
      await mkdir(temp, { recursive: true });
      await this.asOwner(['cp', '-a', '--reflink=auto', '--', this.layout.upper, join(temp, 'upper')]);
      await this.asOwner(['cp', '-a', '--reflink=auto', '--', this.layout.workspace, join(temp, 'build')]);
      await this.host(['mv', '--', temp, dir]);
      this.record = { ...this.record, snapshots: [...this.record.snapshots, snapshot] };
      await writeJsonAtomic(this.layout.record, this.record);
      return snapshot;
    });
  }

  rollback(snapshot: SandboxSnapshot): Promise<void> {
    return this.exclusive(async () => {
      const dir = join(this.layout.snapshots, snapshot.id);
      const known = this.record.snapshots.some((s) => s.id === snapshot.id);
      const present = await readdir(dir).then(
        () => true,
        () => false,
      );
      if (!known || !present) {
        throw new SandboxError('sandbox-failed', `no snapshot ${snapshot.id} in sandbox instance ${this.id}`);
      }
      for (const target of [this.layout.upper, this.layout.work, this.layout.workspace])
        await removeTree(target);
      await mkdir(this.layout.work);
      await giveToSandboxRoot(this.ids(), [this.layout.work]);
      await this.asOwner(['cp', '-a', '--reflink=auto', '--', join(dir, 'upper'), this.layout.upper]);
      await this.asOwner(['cp', '-a', '--reflink=auto', '--', join(dir, 'build'), this.layout.workspace]);
    });
  }

  destroy(): Promise<void> {
    return this.exclusive(async () => {
      this.destroyed = true;
      await removeTree(this.layout.dir);
    });
  }

  /** SANDBOX_BASE_ENV, and under the images' emulator the CPU model it runs. */
  private baseEnv(): Record<string, string> {
    return this.record.emulatorKey
      ? { ...SANDBOX_BASE_ENV, QEMU_CPU: EMULATOR_CPU }
      : { ...SANDBOX_BASE_ENV };
  }

  private ids(): SubordinateIds {
    this.subordinateIds ??= readSubordinateIds();
    return this.subordinateIds;
  }

  /** The image layers' trees, top first: their apt lists are the host's package index. */
  private imageTrees(): string[] {
    return this.record.lowerKeys.map((key) => realpathSync(join(this.paths.image(key), 'tree')));
  }

  private mounts(network: boolean, transfer = false): InstanceMounts {
    // every folder is named with its links resolved (an image may be a link to another home's)
    // and becomes a view root of its own: nothing is reached through a link inside a view
    const tree = (key: string) => realpathSync(join(this.paths.image(key), 'tree'));
    const lowerDirs = this.record.lowerKeys.map(tree);
    const nativeTree = this.record.toolsKey ? tree(this.record.toolsKey) : undefined;
    const dir = realpathSync(this.layout.dir);
    return {
      enterProgram: enterProgram(this.paths.bin),
      viewRoots: [...lowerDirs, ...(nativeTree ? [nativeTree] : []), dir],
      lowerDirs,
      upperDir: join(dir, 'upper'),
      workDir: join(dir, 'work'),
      mergedDir: join(dir, 'merged'),
      workspace: join(dir, 'build'),
      ...(nativeTree ? { nativeTree } : {}),
      // the instance's link to the images' emulator (instanceStore.ts): no view of its own
      ...(this.record.emulatorKey ? { emulator: join(dir, INSTANCE_EMULATOR) } : {}),
      network,
      ids: this.ids(),
      ...(transfer ? { transfer: { in: join(dir, 'transfer-in'), out: join(dir, 'transfer-out') } } : {}),
    };
  }

  private async runNow(
    command: string | readonly string[],
    options: SandboxRunOptions & { transfer?: boolean },
  ): Promise<SandboxRunResult> {
    const argv = typeof command === 'string' ? ['/bin/sh', '-c', command] : [...command];
    if (argv.length === 0 || !argv[0]) throw new SandboxError('sandbox-failed', 'empty command');
    const env = { ...this.baseEnv(), ...this.record.env, ...options.env };
    const limits = resolveLimits(this.record.limits);
    const cgroups = await createCgroupPlacement(`${this.id}-${++this.runCount}`, limits.resources);
    const mounts = {
      ...this.mounts(options.network ?? false, options.transfer),
      tmpfs: limits.tmpfs,
      ...(cgroups ? { cgroups } : {}),
    };
    let hostArgv: string[];
    try {
      hostArgv = instanceCommand(mounts, options.cwd ?? SANDBOX_WORKSPACE, argv, env);
    } catch (error) {
      await cgroups?.remove();
      throw new SandboxError('sandbox-failed', (error as Error).message);
    }
    const stopped = new AbortController();
    let disk: string | undefined;
    const stopWatching = watchDisk(this.layout.dir, limits.disk, (reason) => {
      disk = reason;
      stopped.abort();
    });
    const signal = options.signal ? AbortSignal.any([options.signal, stopped.signal]) : stopped.signal;
    let result: Awaited<ReturnType<typeof runProcess>>;
    try {
      result = await runProcess({
        command: hostArgv,
        // the host's processes get nothing of the command's environment: it is set inside
        clearEnv: true,
        env: HOST_ENV,
        timeoutMs: options.timeoutMs,
        signal,
        captureBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
        outputLimitBytes: limits.outputBytes,
        logFile: options.logFile,
        input: options.input,
        onStdout: options.onStdout,
        onStderr: options.onStderr,
      });
    } finally {
      stopWatching();
    }
    const limit = await limitHit(result, disk, cgroups, limits.outputBytes);
    await cgroups?.remove();
    if (result.exitCode === SETUP_FAILED_EXIT && result.stderr.includes(SETUP_FAILED_MARK)) {
      throw new SandboxError(
        'sandbox-failed',
        `sandbox instance ${this.id} could not be assembled:\n${result.stderr.slice(-2000)}`,
      );
    }
    return {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: limit ? `${result.stderr}\nrvport-sandbox: ${limit.detail}\n` : result.stderr,
      truncated: result.truncated,
      stdoutBytes: result.stdoutBytes,
      stderrBytes: result.stderrBytes,
      durationMs: result.durationMs,
      timedOut: result.timedOut,
      aborted: result.aborted && !disk,
      commandNotFound: result.exitCode === 127 && isCommandNotFound(result.stderr, command),
      ...(limit ? { limit } : {}),
    };
  }

  private exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.queue.then(() => {
      if (this.destroyed)
        throw new SandboxError('instance-missing', `sandbox instance ${this.id} was destroyed`);
      return operation();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private asOwner(command: readonly string[]): Promise<string> {
    return runAsTreeOwner(this.ids(), command);
  }

  private async host(command: readonly string[]): Promise<void> {
    const result = await runProcess({ command, timeoutMs: HOST_OP_TIMEOUT_MS, captureBytes: 16 * 1024 });
    if (result.exitCode !== 0) {
      throw new SandboxError('sandbox-failed', `${command.join(' ')} failed: ${result.stderr.trim()}`);
    }
  }

  private fileError(what: string, path: string, result: SandboxRunResult): SandboxError {
    return new SandboxError(
      'sandbox-failed',
      `could not ${what} ${path}: ${result.stderr.trim() || `exit ${result.exitCode}`}`,
    );
  }
}

/**
 * Whether the program the caller named is missing (not a program that the command itself ran).
 * An argv is started by the entry program inside (env on an SSH target), which says so; a command line runs in `sh -c`, where only a
 * "not found" for its first word means the named program is missing.
 */
export function isCommandNotFound(stderr: string, command: string | readonly string[]): boolean {
  const named = typeof command === 'string' ? (command.trim().split(/\s+/)[0] ?? '') : (command[0] ?? '');
  if (named === '') return false;
  const escaped = named.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const wording =
    typeof command === 'string'
      ? `^(/bin/)?sh: (\\d+: )?${escaped}: not found$`
      : `^(env: [‘']${escaped}[’']|rvport-enter: ${escaped}): No such file or directory$`;
  return new RegExp(wording, 'm').test(stderr);
}

/** Which limit ended a command, if one did. */
async function limitHit(
  result: { outputLimited: boolean; exitCode: number },
  disk: string | undefined,
  cgroups: CgroupPlacement | undefined,
  outputBytes: number,
): Promise<SandboxLimitHit | undefined> {
  if (disk) return { kind: 'disk', detail: `stopped: ${disk}` };
  if (result.outputLimited)
    return {
      kind: 'output',
      detail: `stopped: the command wrote more than ${outputBytes} bytes of output`,
    };
  const hits = await cgroups?.hits();
  if (hits?.memory)
    return {
      kind: 'memory',
      detail: `the memory limit of the sandbox (${cgroups?.kind}) was reached; a process was killed`,
    };
  if (hits?.processes)
    return {
      kind: 'processes',
      detail: `the process limit of the sandbox (${cgroups?.kind}) was reached; a fork failed`,
    };
  return undefined;
}
