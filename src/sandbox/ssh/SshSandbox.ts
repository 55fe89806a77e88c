import { createHash, randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, posix } from 'node:path';
import { runProcess } from '../../process/runProcess.ts';
import { extractTarball, isSourceError } from '../../sources/index.ts';
import { isCommandNotFound } from '../chroot/ChrootSandbox.ts';
import { copyOutTree } from '../chroot/copyOutTree.ts';
import { SandboxError } from '../errors.ts';
import { readFileOverRun, writeFileOverRun } from '../filesOverRun.ts';
import { resolveLimits, type SandboxLimitOverrides } from '../limits/SandboxLimits.ts';
import { checkInstallRequest } from '../packages/checkInstallRequest.ts';
import { DebDownloadError, isDebDownloadError } from '../packages/downloadDebs.ts';
import { hostResolvedDebs } from '../packages/hostResolvedDebs.ts';
import { downloadMirror } from '../packages/parseAptUris.ts';
import {
  SANDBOX_WORKSPACE,
  type Sandbox,
  type SandboxRunOptions,
  type SandboxRunResult,
  type SandboxSnapshot,
} from '../Sandbox.ts';
import type { SandboxPaths } from '../sandboxPaths.ts';
import { classifySshFailure } from './classifySshFailure.ts';
import { hostRootfsLists } from './hostRootfsLists.ts';
import type { SshTarget } from './parseSshTarget.ts';
import { printable } from './printable.ts';
import {
  COPY_IN_SCRIPT,
  COPY_OUT_SCRIPT,
  DESTROY_SCRIPT,
  fromRemote,
  KILL_SCRIPT,
  ROLLBACK_SCRIPT,
  RUN_SCRIPT,
  remoteBaseEnv,
  SNAPSHOT_SCRIPT,
  toRemote,
  UNPACK_DEBS_SCRIPT,
} from './remoteWorkspace.ts';
import { remoteQuote, SSH_ENV, type SshClientFiles, sshArgv } from './sshArgv.ts';
import { receiveStream, sendStream } from './streamTransfer.ts';

/** Default retained output per stream, as the local sandbox. */
const DEFAULT_OUTPUT_CAP_BYTES = 256 * 1024;
/** File operations (a copy, a snapshot) get this long. */
const TRANSFER_TIMEOUT_MS = 30 * 60_000;
/** Housekeeping commands (kill, destroy) get this long. */
const SHORT_TIMEOUT_MS = 60_000;
/** At most this much comes back from the remote in one copy out. */
export const MAX_COPY_OUT_BYTES = 8 * 1024 ** 3;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface SshSandboxInit {
  id: string;
  target: SshTarget;
  files: SshClientFiles;
  /** The remote workspace's absolute path (checked by openSshSandbox). */
  root: string;
  /** A host folder of this instance: the workspace mirror and scratch space. */
  localDir: string;
  env?: Record<string, string>;
  limits?: SandboxLimitOverrides;
  /**
   * Keep `workspace` (a host folder) equal to the remote `/build` around every command, for the
   * port's steps that read the build tree on the host (verification reads ELF headers here).
   */
  mirrorWorkspace?: boolean;
  /** Where packages may come from besides the host's own Debian archive. */
  mirror?: string;
  /** Where downloaded packages are kept (shared with the local sandbox). */
  debCache: string;
  /** The host's sandbox folders: its riscv64 rootfs images' lists decide what installs fetch. */
  images?: SandboxPaths;
}

/** What to do about a refused or failed download on an SSH target. */
function installHint(error: unknown): string {
  if (!isDebDownloadError(error)) return '';
  if (error.code === 'missing')
    return "\nE: the target's package lists are older than the archive (apt-get update there)";
  if (error.code === 'refused')
    return "\nE: the host fetches only what its own riscv64 rootfs images' lists name: provision one of the target's suite (rvport sandbox setup --suite SUITE)";
  return '';
}

/**
 * A sandbox on a real riscv64 machine over SSH: a throwaway folder in the remote user's home
 * whose `build` stands for `/build` (command words naming `/build` are mapped there and output
 * mapped back), every command under `env -i` in a session of its own, killed there too on a time
 * limit. Nothing the remote sends is run on the host: output is text, files come back through
 * rvport's own tar extractor. Commands run one at a time, as in the local sandbox.
 */
export class SshSandbox implements Sandbox {
  readonly id: string;
  readonly mode = 'native' as const;
  readonly workspace: string;
  readonly target: SshTarget;
  private readonly root: string;
  private readonly remoteBuild: Buffer;
  private queue: Promise<unknown> = Promise.resolve();
  private destroyed = false;
  private snapshots = new Set<string>();
  /** The mirror's state after the last pull; a change since means the host wrote to it. */
  private mirrorState: string | null = null;

  constructor(private readonly init: SshSandboxInit) {
    this.id = init.id;
    this.target = init.target;
    this.root = init.root;
    this.remoteBuild = Buffer.from(`${init.root}/build`);
    this.workspace = join(init.localDir, 'build');
  }

  /** The remote workspace folder (for messages and tests). */
  get remoteRoot(): string {
    return this.root;
  }

  run(command: string | readonly string[], options: SandboxRunOptions = {}): Promise<SandboxRunResult> {
    return this.exclusive(async () => {
      await this.pushMirror();
      try {
        return await this.runNow(command, options);
      } finally {
        await this.pullMirror();
      }
    });
  }

  async readFile(path: string): Promise<Buffer> {
    const { result, data } = await readFileOverRun((c, o) => this.run(c, o), path);
    if (result.exitCode !== 0) throw this.fileError('read', path, result);
    return data;
  }

  async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    this.insideWorkspace(path, 'write');
    const result = await writeFileOverRun((c, o) => this.run(c, o), path, data, mode);
    if (result.exitCode !== 0) throw this.fileError('write', path, result);
  }

  /** The host's own tar of the host path, unpacked on the remote into a staging folder, then moved. */
  copyIn(hostPath: string, sandboxPath: string): Promise<void> {
    return this.exclusive(async () => {
      this.insideWorkspace(sandboxPath, 'copy to');
      await this.pushMirror();
      const remote = this.remotePath(sandboxPath);
      const name = basename(hostPath);
      const result = await sendStream(
        ['tar', '-C', dirname(hostPath), '-cf', '-', '--', name],
        this.ssh(this.script(COPY_IN_SCRIPT, 'rvport-copy-in', [this.root, fresh(), remote, name])),
        SSH_ENV,
        TRANSFER_TIMEOUT_MS,
      );
      this.failIfConnection(result.exitCode, result.stderr);
      if (result.exitCode !== 0 || result.timedOut) {
        throw new SandboxError(
          'sandbox-failed',
          `could not copy ${hostPath} to ${sandboxPath} on ${this.target.url}: ${result.timedOut ? 'timed out' : printable(result.stderr.trim(), 800)}`,
        );
      }
      await this.pullMirror();
    });
  }

  /**
   * The remote tars the path; the host writes the stream to a file (bounded) and unpacks it with
   * rvport's extractor, which admits only files, folders and links that stay inside.
   */
  copyOut(sandboxPath: string, hostPath: string): Promise<void> {
    return this.exclusive(async () => {
      await this.pushMirror();
      await this.fetchTree(this.remotePath(sandboxPath), hostPath, sandboxPath);
    });
  }

  /**
   * Packages without touching the remote's system: apt there says (offline, from its own lists)
   * which package versions it picked; the host fetches those its own riscv64 rootfs images' lists
   * name (hostResolvedDebs: limits, pool paths, sizes and SHA-256 from the host's index), sends them over and unpacks them with `dpkg-deb -x`
   * into the workspace's prefix, which every command's search paths name first. No maintainer
   * script runs; what the remote has installed already is used as it is.
   */
  async installPackages(
    packages: readonly string[],
    options: Pick<SandboxRunOptions, 'timeoutMs' | 'signal' | 'onStdout' | 'onStderr' | 'logFile'> = {},
  ): Promise<SandboxRunResult> {
    checkInstallRequest(packages);
    const listed = await this.run(
      [
        'apt-get',
        'install',
        '-y',
        '-q',
        '--no-install-recommends',
        '--print-uris',
        '-o',
        'Debug::NoLocking=1',
        ...packages,
      ],
      { ...options, env: { DEBIAN_FRONTEND: 'noninteractive' } },
    );
    if (listed.exitCode !== 0) return listed;
    let files: string[];
    try {
      files = await this.fetchDebs(listed.stdout, packages, options.signal);
    } catch (error) {
      const message = `E: ${(error as Error).message}${installHint(error)}\n`;
      options.onStderr?.(Buffer.from(message));
      return { ...listed, exitCode: 100, stderr: `${listed.stderr}${message}` };
    }
    if (files.length === 0) return listed;
    return this.exclusive(async () => {
      const staged = join(this.init.localDir, `debs-${fresh()}`);
      await mkdir(staged);
      try {
        for (const file of files)
          await link(file, join(staged, basename(file))).catch(async () => {
            const { copyFile } = await import('node:fs/promises');
            await copyFile(file, join(staged, basename(file)));
          });
        const remoteDir = `${this.root}/tmp/${basename(staged)}`;
        const sent = await sendStream(
          ['tar', '-C', dirname(staged), '-cf', '-', '--', basename(staged)],
          this.ssh(
            this.script(COPY_IN_SCRIPT, 'rvport-copy-in', [this.root, fresh(), remoteDir, basename(staged)]),
          ),
          SSH_ENV,
          TRANSFER_TIMEOUT_MS,
        );
        this.failIfConnection(sent.exitCode, sent.stderr);
        if (sent.exitCode !== 0) {
          const message = `E: could not send the packages to ${this.target.url}: ${printable(sent.stderr.trim(), 400)}\n`;
          return { ...listed, exitCode: 100, stderr: message };
        }
        return await this.runNow(
          ['/bin/sh', '-c', UNPACK_DEBS_SCRIPT, 'rvport-unpack', this.root, remoteDir],
          {
            ...options,
            raw: true,
          },
        );
      } finally {
        await rm(staged, { recursive: true, force: true });
      }
    });
  }

  /** The packages apt on the remote picked, fetched as the host's own riscv64 lists say. */
  private async fetchDebs(aptOutput: string, requested: readonly string[], signal?: AbortSignal) {
    if (!this.init.images)
      throw new DebDownloadError(
        'refused',
        'this workspace has no host package lists to check installs against',
      );
    const lists = await hostRootfsLists(this.init.images);
    return hostResolvedDebs({
      aptOutput,
      requested,
      trees: lists.trees,
      mirror: downloadMirror(this.init.mirror ?? lists.mirror),
      cacheDir: this.init.debCache,
      ...(signal ? { signal } : {}),
    });
  }

  snapshot(): Promise<SandboxSnapshot> {
    return this.exclusive(async () => {
      await this.pushMirror();
      const snapshot = { id: `${Date.now().toString(36)}-${fresh()}`, createdAt: new Date().toISOString() };
      await this.housekeeping(SNAPSHOT_SCRIPT, [this.root, snapshot.id], 'snapshot', TRANSFER_TIMEOUT_MS);
      this.snapshots.add(snapshot.id);
      return snapshot;
    });
  }

  rollback(snapshot: SandboxSnapshot): Promise<void> {
    return this.exclusive(async () => {
      if (!this.snapshots.has(snapshot.id))
        throw new SandboxError('sandbox-failed', `no snapshot ${snapshot.id} in sandbox instance ${this.id}`);
      await this.housekeeping(ROLLBACK_SCRIPT, [this.root, snapshot.id], 'roll back', TRANSFER_TIMEOUT_MS);
      this.mirrorState = null;
      await this.pullMirror();
    });
  }

  destroy(): Promise<void> {
    return this.exclusive(async () => {
      this.destroyed = true;
      try {
        await this.housekeeping(DESTROY_SCRIPT, [this.root], 'remove the workspace on', SHORT_TIMEOUT_MS);
      } finally {
        await rm(this.init.localDir, { recursive: true, force: true });
      }
    });
  }

  /** Files rvport itself puts on the target go into the workspace only, never the remote's system. */
  private insideWorkspace(path: string, what: string): void {
    const normal = posix.normalize(path);
    if (normal !== SANDBOX_WORKSPACE && !normal.startsWith(`${SANDBOX_WORKSPACE}/`)) {
      throw new SandboxError(
        'sandbox-failed',
        `will not ${what} ${path} on ${this.target.url}: only ${SANDBOX_WORKSPACE} (the target's workspace) is rvport's there`,
      );
    }
  }

  /** `/build…` → the remote workspace; any other absolute path stays as it is. */
  private remotePath(path: string): string {
    if (!path.startsWith('/') || /[\0\n]/.test(path))
      throw new SandboxError('sandbox-failed', `not an absolute sandbox path: ${JSON.stringify(path)}`);
    const normal = posix.normalize(path);
    return normal === SANDBOX_WORKSPACE || normal.startsWith(`${SANDBOX_WORKSPACE}/`)
      ? `${this.root}/build${normal.slice(SANDBOX_WORKSPACE.length)}`
      : normal;
  }

  private async runNow(
    command: string | readonly string[],
    options: SandboxRunOptions & { raw?: boolean },
  ): Promise<SandboxRunResult> {
    const argv = typeof command === 'string' ? ['/bin/sh', '-c', command] : [...command];
    if (argv.length === 0 || !argv[0]) throw new SandboxError('sandbox-failed', 'empty command');
    if (argv[0].includes('='))
      throw new SandboxError('sandbox-failed', `a program name may not contain "=": ${argv[0]}`);
    const map = (word: string) => (options.raw ? word : toRemote(word, this.root));
    const env: Record<string, string> = { ...remoteBaseEnv(this.root) };
    for (const [name, value] of Object.entries({ ...this.init.env, ...options.env })) {
      if (!ENV_NAME.test(name))
        throw new SandboxError('sandbox-failed', `not an environment variable name: ${JSON.stringify(name)}`);
      env[name] = map(value);
    }
    const runId = fresh();
    const cwd = options.cwd ? this.remotePath(options.cwd) : `${this.root}/build`;
    const remoteCommand = this.script(RUN_SCRIPT, 'rvport-run', [
      this.root,
      runId,
      cwd,
      String(options.timeoutMs ? Math.ceil(options.timeoutMs / 1000) : 0),
      ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
      ...argv.map(map),
    ]);
    const back = (chunk: Buffer) => replaceBytes(chunk, this.remoteBuild, LOCAL_WORKSPACE);
    const limits = resolveLimits(this.init.limits);
    const result = await runProcess({
      command: this.ssh(remoteCommand),
      clearEnv: true,
      env: SSH_ENV,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      captureBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
      outputLimitBytes: limits.outputBytes,
      logFile: options.logFile,
      input: options.input,
      ...(options.onStdout ? { onStdout: (c: Buffer) => options.onStdout?.(back(c)) } : {}),
      ...(options.onStderr ? { onStderr: (c: Buffer) => options.onStderr?.(back(c)) } : {}),
    });
    // the local ssh is gone; the remote session may not be (no terminal, no hangup): kill it there
    if (result.timedOut || result.aborted || result.outputLimited) await this.killRemote(runId);
    this.failIfConnection(result.exitCode, result.stderr);
    const stderr = fromRemote(result.stderr, this.root);
    const limit = result.outputLimited
      ? {
          kind: 'output' as const,
          detail: `stopped: the command wrote more than ${limits.outputBytes} bytes of output`,
        }
      : undefined;
    return {
      exitCode: result.exitCode,
      stdout: fromRemote(result.stdout, this.root),
      stderr: limit ? `${stderr}\nrvport-sandbox: ${limit.detail}\n` : stderr,
      truncated: result.truncated,
      stdoutBytes: result.stdoutBytes,
      stderrBytes: result.stderrBytes,
      durationMs: result.durationMs,
      timedOut: result.timedOut,
      aborted: result.aborted,
      commandNotFound: result.exitCode === 127 && isCommandNotFound(stderr, command),
      ...(limit ? { limit } : {}),
    };
  }

  private async killRemote(runId: string): Promise<void> {
    await runProcess({
      command: this.ssh(this.script(KILL_SCRIPT, 'rvport-kill', [this.root, runId])),
      clearEnv: true,
      env: SSH_ENV,
      timeoutMs: SHORT_TIMEOUT_MS,
      captureBytes: 4096,
    }).catch(() => undefined);
  }

  private async housekeeping(script: string, args: string[], what: string, timeoutMs: number): Promise<void> {
    const result = await runProcess({
      command: this.ssh(this.script(script, 'rvport', args)),
      clearEnv: true,
      env: SSH_ENV,
      timeoutMs,
      captureBytes: 16 * 1024,
    });
    this.failIfConnection(result.exitCode, result.stderr);
    if (result.exitCode !== 0) {
      throw new SandboxError(
        'sandbox-failed',
        `could not ${what} ${this.target.url}: ${result.timedOut ? 'timed out' : printable(result.stderr.trim(), 800) || `exit ${result.exitCode}`}`,
      );
    }
  }

  /** Brings a remote file or folder to `hostPath` through the extractor. */
  private async fetchTree(remote: string, hostPath: string, shown: string): Promise<void> {
    const scratch = join(this.init.localDir, `out-${fresh()}`);
    await mkdir(scratch);
    try {
      const file = join(scratch, 'stream.tar');
      const got = await receiveStream(
        this.ssh(this.script(COPY_OUT_SCRIPT, 'rvport-copy-out', [remote])),
        SSH_ENV,
        file,
        MAX_COPY_OUT_BYTES,
        TRANSFER_TIMEOUT_MS,
      );
      this.failIfConnection(got.exitCode, got.stderr);
      const isFolder = got.exitCode === 0;
      if ((got.exitCode !== 0 && got.exitCode !== 10) || got.timedOut || got.tooLarge) {
        const why = got.tooLarge
          ? `more than ${MAX_COPY_OUT_BYTES} bytes came back`
          : got.timedOut
            ? 'timed out'
            : printable(fromRemote(got.stderr, this.root).trim(), 800) || `exit ${got.exitCode}`;
        throw new SandboxError(
          'sandbox-failed',
          `could not copy out ${shown} from ${this.target.url}: ${why}`,
        );
      }
      const unpacked = join(scratch, 'tree');
      try {
        await extractTarball(file, unpacked, join(scratch, 'unpack'));
      } catch (error) {
        if (!isSourceError(error)) throw error;
        throw new SandboxError(
          'sandbox-failed',
          `refused what ${this.target.url} sent for ${shown}: ${printable(error.message, 800)}`,
        );
      }
      const from = isFolder ? unpacked : join(unpacked, basename(remote));
      const info = await lstat(from).catch(() => null);
      if (!info || (isFolder ? !info.isDirectory() : !info.isFile())) {
        throw new SandboxError(
          'sandbox-failed',
          `refused what ${this.target.url} sent for ${shown}: not the ${isFolder ? 'folder' : 'file'} it said it was`,
        );
      }
      await rm(hostPath, { recursive: true, force: true });
      await mkdir(dirname(hostPath), { recursive: true });
      await rename(from, hostPath).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV') throw error;
        await copyOutTree(from, hostPath);
      });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** The host wrote to the mirror since the last pull: the remote `/build` becomes the mirror. */
  private async pushMirror(): Promise<void> {
    if (!this.init.mirrorWorkspace) return;
    const state = await treeState(this.workspace);
    if (state === this.mirrorState) return;
    const result = await sendStream(
      ['tar', '-C', dirname(this.workspace), '-cf', '-', '--', basename(this.workspace)],
      this.ssh(
        this.script(COPY_IN_SCRIPT, 'rvport-copy-in', [
          this.root,
          fresh(),
          `${this.root}/build`,
          basename(this.workspace),
        ]),
      ),
      SSH_ENV,
      TRANSFER_TIMEOUT_MS,
    );
    this.failIfConnection(result.exitCode, result.stderr);
    if (result.exitCode !== 0)
      throw new SandboxError(
        'sandbox-failed',
        `could not send the workspace to ${this.target.url}: ${printable(result.stderr, 800)}`,
      );
    this.mirrorState = state;
  }

  /** The remote `/build` comes back into the mirror. */
  private async pullMirror(): Promise<void> {
    if (!this.init.mirrorWorkspace || this.destroyed) return;
    await this.fetchTree(`${this.root}/build`, this.workspace, SANDBOX_WORKSPACE);
    this.mirrorState = await treeState(this.workspace);
  }

  private failIfConnection(exitCode: number, stderr: string): void {
    const failure = classifySshFailure(this.target, exitCode, stderr);
    if (failure) throw failure;
  }

  /** `/bin/sh -c SCRIPT NAME ARGS…` as one string for the remote login shell. */
  private script(script: string, name: string, args: readonly string[]): string {
    return ['exec', '/bin/sh', '-c', script, name, ...args].map(remoteQuote).join(' ');
  }

  private ssh(remoteCommand: string): string[] {
    return sshArgv(this.target, this.init.files, remoteCommand);
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

  private fileError(what: string, path: string, result: SandboxRunResult): SandboxError {
    return new SandboxError(
      'sandbox-failed',
      `could not ${what} ${path} on ${this.target.url}: ${printable(result.stderr.trim(), 800) || `exit ${result.exitCode}`}`,
    );
  }
}

const LOCAL_WORKSPACE = Buffer.from(SANDBOX_WORKSPACE);

/** `from` replaced by `to` in bytes (a chunk may be binary: a file read with cat). */
export function replaceBytes(chunk: Buffer, from: Buffer, to: Buffer): Buffer {
  let at = chunk.indexOf(from);
  if (at < 0) return chunk;
  const parts: Buffer[] = [];
  let start = 0;
  while (at >= 0) {
    parts.push(chunk.subarray(start, at), to);
    start = at + from.length;
    at = chunk.indexOf(from, start);
  }
  parts.push(chunk.subarray(start));
  return Buffer.concat(parts);
}

function fresh(): string {
  return randomBytes(6).toString('hex');
}

/** Names, sizes, modes and times of a host tree: equal states mean nothing was written. */
async function treeState(root: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string, rel: string): Promise<void> => {
    const names = (await readdir(dir).catch(() => [] as string[])).sort();
    for (const name of names) {
      const path = join(dir, name);
      const info = await lstat(path);
      hash.update(`${rel}/${name}\0${info.mode}\0${info.size}\0${info.mtimeMs}\n`);
      if (info.isDirectory()) await walk(path, `${rel}/${name}`);
    }
  };
  const top = await stat(root).catch(() => null);
  if (!top) return 'missing';
  await walk(root, '');
  return hash.digest('hex');
}
