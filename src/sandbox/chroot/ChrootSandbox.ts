import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeJsonAtomic } from '../../fs/writeFileAtomic.ts';
import { runProcess } from '../../process/runProcess.ts';
import { SandboxError } from '../errors.ts';
import { imageTree } from '../imageStore.ts';
import { removeTree } from '../removeTree.ts';
import {
  SANDBOX_WORKSPACE,
  type Sandbox,
  type SandboxMode,
  type SandboxRunOptions,
  type SandboxRunResult,
  type SandboxSnapshot,
} from '../Sandbox.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { INSTANCE_RECORD, type InstanceRecord } from './InstanceRecord.ts';
import {
  type InstanceMounts,
  instanceCommand,
  SETUP_FAILED_EXIT,
  SETUP_FAILED_MARK,
} from './instanceMounts.ts';

/** The environment every command starts from (nothing leaks in from the host). */
export const SANDBOX_BASE_ENV: Readonly<Record<string, string>> = {
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  HOME: '/root',
  LANG: 'C.UTF-8',
  SHELL: '/bin/sh',
};

/** Default retained output per stream. */
export const DEFAULT_OUTPUT_CAP_BYTES = 256 * 1024;
/** Host-side file operations (copying an upper layer) get this long. */
const HOST_OP_TIMEOUT_MS = 30 * 60_000;
const TRANSFER_DIR = '.rvport-transfer';
const PACKAGE_NAME = /^[a-z0-9][a-z0-9+.-]+(:[a-z0-9]+)?(=[A-Za-z0-9.+~:-]+)?$/;

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
  hostCommand(command: readonly string[], options: { cwd?: string; network?: boolean } = {}): string[] {
    return instanceCommand(this.mounts(options.network ?? false), options.cwd ?? SANDBOX_WORKSPACE, command);
  }

  run(command: string | readonly string[], options: SandboxRunOptions = {}): Promise<SandboxRunResult> {
    return this.exclusive(() => this.runNow(command, options));
  }

  async readFile(path: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const result = await this.run(['cat', '--', path], {
      onStdout: (c) => chunks.push(c),
      outputCapBytes: 4096,
    });
    if (result.exitCode !== 0) throw this.fileError('read', path, result);
    return Buffer.concat(chunks);
  }

  async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    const chmod = mode === undefined ? '' : ` && chmod ${mode.toString(8)} "$1"`;
    const result = await this.run(
      ['/bin/sh', '-c', `mkdir -p "$(dirname "$1")" && cat > "$1"${chmod}`, 'sh', path],
      {
        input: data,
      },
    );
    if (result.exitCode !== 0) throw this.fileError('write', path, result);
  }

  async copyIn(hostPath: string, sandboxPath: string): Promise<void> {
    const name = `in-${randomBytes(6).toString('hex')}`;
    const staged = join(this.workspace, TRANSFER_DIR, name);
    await mkdir(join(this.workspace, TRANSFER_DIR), { recursive: true });
    try {
      await this.host(['cp', '-a', '--', hostPath, staged]);
      const inside = `${SANDBOX_WORKSPACE}/${TRANSFER_DIR}/${name}`;
      const result = await this.run(
        [
          '/bin/sh',
          '-c',
          'rm -rf -- "$2" && mkdir -p -- "$(dirname -- "$2")" && cp -a -- "$1" "$2"',
          'sh',
          inside,
          sandboxPath,
        ],
        {},
      );
      if (result.exitCode !== 0) throw this.fileError('copy in', sandboxPath, result);
    } finally {
      await rm(staged, { recursive: true, force: true });
    }
  }

  async copyOut(sandboxPath: string, hostPath: string): Promise<void> {
    const name = `out-${randomBytes(6).toString('hex')}`;
    const staged = join(this.workspace, TRANSFER_DIR, name);
    try {
      const inside = `${SANDBOX_WORKSPACE}/${TRANSFER_DIR}/${name}`;
      const result = await this.run(
        [
          '/bin/sh',
          '-c',
          'mkdir -p -- "$(dirname -- "$2")" && cp -a -- "$1" "$2"',
          'sh',
          sandboxPath,
          inside,
        ],
        {},
      );
      if (result.exitCode !== 0) throw this.fileError('copy out', sandboxPath, result);
      await rm(hostPath, { recursive: true, force: true });
      // -P: symlinks written by the build stay links; they are never followed on the host
      await this.host(['cp', '-a', '-P', '--', staged, hostPath]);
    } finally {
      await rm(staged, { recursive: true, force: true });
    }
  }

  async installPackages(
    packages: readonly string[],
    options: Pick<SandboxRunOptions, 'timeoutMs' | 'signal' | 'onStdout' | 'onStderr' | 'logFile'> = {},
  ): Promise<SandboxRunResult> {
    const bad = packages.filter((p) => !PACKAGE_NAME.test(p));
    if (bad.length > 0)
      throw new SandboxError('sandbox-failed', `not Debian package names: ${bad.join(', ')}`);
    if (packages.length === 0) throw new SandboxError('sandbox-failed', 'no packages to install');
    // the image's package lists may be stale: update and retry once if the install fails
    const install = 'apt-get install -y -q --no-install-recommends "$@"';
    const script = `${install} || { apt-get update -q && ${install}; }`;
    return this.run(['/bin/sh', '-c', script, 'sh', ...packages], {
      ...options,
      network: true,
      env: { DEBIAN_FRONTEND: 'noninteractive' },
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
      await this.host(['cp', '-a', '--reflink=auto', '--', this.layout.upper, join(temp, 'upper')]);
      await this.host(['cp', '-a', '--reflink=auto', '--', this.layout.workspace, join(temp, 'build')]);
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
      await this.host(['cp', '-a', '--reflink=auto', '--', join(dir, 'upper'), this.layout.upper]);
      await this.host(['cp', '-a', '--reflink=auto', '--', join(dir, 'build'), this.layout.workspace]);
    });
  }

  destroy(): Promise<void> {
    return this.exclusive(async () => {
      this.destroyed = true;
      await removeTree(this.layout.dir);
    });
  }

  private mounts(network: boolean): InstanceMounts {
    const nativeTree = this.record.toolsKey ? imageTree(this.paths, this.record.toolsKey) : undefined;
    return {
      lowerDirs: this.record.lowerKeys.map((key) => imageTree(this.paths, key)),
      upperDir: this.layout.upper,
      workDir: this.layout.work,
      mergedDir: this.layout.merged,
      workspace: this.layout.workspace,
      nativeTree,
      network,
    };
  }

  private async runNow(
    command: string | readonly string[],
    options: SandboxRunOptions,
  ): Promise<SandboxRunResult> {
    const argv = typeof command === 'string' ? ['/bin/sh', '-c', command] : [...command];
    if (argv.length === 0 || !argv[0]) throw new SandboxError('sandbox-failed', 'empty command');
    const result = await runProcess({
      command: instanceCommand(this.mounts(options.network ?? false), options.cwd ?? SANDBOX_WORKSPACE, argv),
      clearEnv: true,
      env: { ...SANDBOX_BASE_ENV, ...this.record.env, ...options.env },
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      captureBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
      logFile: options.logFile,
      input: options.input,
      onStdout: options.onStdout,
      onStderr: options.onStderr,
    });
    if (result.exitCode === SETUP_FAILED_EXIT && result.stderr.includes(SETUP_FAILED_MARK)) {
      throw new SandboxError(
        'sandbox-failed',
        `sandbox instance ${this.id} could not be assembled:\n${result.stderr.slice(-2000)}`,
      );
    }
    return {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      truncated: result.truncated,
      stdoutBytes: result.stdoutBytes,
      stderrBytes: result.stderrBytes,
      durationMs: result.durationMs,
      timedOut: result.timedOut,
      aborted: result.aborted,
      commandNotFound: result.exitCode === 127 && isCommandNotFound(result.stderr, command),
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

/** setpriv (argv commands) and sh (command lines) say so in these words. */
/**
 * Whether the program the caller named is missing (not a program that the command itself ran).
 * An argv is started by setpriv, which says so; a command line runs in `sh -c`, where only a
 * "not found" for its first word means the named program is missing.
 */
export function isCommandNotFound(stderr: string, command: string | readonly string[]): boolean {
  if (/setpriv: failed to execute .*: No such file or directory/.test(stderr)) return true;
  if (typeof command !== 'string') return false;
  const first = command.trim().split(/\s+/)[0] ?? '';
  const escaped = first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return first !== '' && new RegExp(`^(/bin/)?sh: (\\d+: )?${escaped}: not found$`, 'm').test(stderr);
}
