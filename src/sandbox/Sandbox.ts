/**
 * The interface the port workflow uses to build inside a riscv64 userland. Kept small so a second
 * backend (a native riscv64 machine over SSH) can implement it too.
 */

/**
 * `emulated`: everything riscv64 under qemu. `accelerated`: the rootfs's toolchain is swapped for
 * x86_64 cross compilers of the same version. `native-userland`: accelerated, and also the shells,
 * make, the text tools and coreutils are the x86_64 builds of the same Debian versions (never
 * `uname`, `arch`, python3, cmake, meson or perl: see provision/userlandSwap.ts).
 */
export type SandboxMode = 'native-userland' | 'accelerated' | 'emulated';

/**
 * What a sandbox is: one of the local modes, or `native`, a real riscv64 machine (an SSH target)
 * where nothing is emulated and no userland proof applies. Code that picks a local mode keeps
 * using SandboxMode.
 */
export type TargetMode = SandboxMode | 'native';

/** Fastest first. */
export const SANDBOX_MODES: readonly SandboxMode[] = ['native-userland', 'accelerated', 'emulated'];

/** Where the workspace of an instance appears inside the sandbox. */
export const SANDBOX_WORKSPACE = '/build';

export interface SandboxRunOptions {
  /** Working directory inside the sandbox; default the workspace (`/build`). */
  cwd?: string;
  /** Added to the sandbox's clean default environment (PATH, HOME, LANG, …). */
  env?: Record<string, string>;
  /** Kill the command and everything it started after this long. */
  timeoutMs?: number;
  /** Network access; off by default (builds must not reach the network). */
  network?: boolean;
  /** Bytes of stdout and of stderr kept in the result (the tail); the rest is only streamed. */
  outputCapBytes?: number;
  /** The full interleaved output is appended to this host file. */
  logFile?: string;
  input?: string | Buffer;
  signal?: AbortSignal;
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
}

export interface SandboxRunResult {
  /** The command's exit status; 128 + signal number when killed by a signal. */
  exitCode: number;
  stdout: string;
  stderr: string;
  /** True when output went past `outputCapBytes` and only its tail is kept. */
  truncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  /** The program named by the command does not exist in the sandbox. */
  commandNotFound: boolean;
  /** A limit of the sandbox stopped the command (it was killed, or its allocation failed). */
  limit?: SandboxLimitHit;
}

/** Which of the sandbox's limits a command ran into, and what it said. */
export interface SandboxLimitHit {
  kind: 'memory' | 'processes' | 'disk' | 'output';
  detail: string;
}

/** An opaque handle to a saved state of an instance (its changes to the image and its workspace). */
export interface SandboxSnapshot {
  readonly id: string;
  readonly createdAt: string;
}

export interface Sandbox {
  readonly id: string;
  readonly mode: TargetMode;
  /** Host directory that appears as `/build` inside, for tools that work on the sources directly. */
  readonly workspace: string;
  /** Runs an argv (no shell) or a `/bin/sh -c` command line inside the sandbox. */
  run(command: string | readonly string[], options?: SandboxRunOptions): Promise<SandboxRunResult>;
  readFile(path: string): Promise<Buffer>;
  writeFile(path: string, data: string | Buffer, mode?: number): Promise<void>;
  /** Copies a host file or directory to `sandboxPath` (created or replaced). */
  copyIn(hostPath: string, sandboxPath: string): Promise<void>;
  /** Copies a sandbox file or directory out to `hostPath` (created or replaced). */
  copyOut(sandboxPath: string, hostPath: string): Promise<void>;
  /** Installs Debian packages with apt, network on. */
  installPackages(
    packages: readonly string[],
    options?: Pick<SandboxRunOptions, 'timeoutMs' | 'signal' | 'onStdout' | 'onStderr' | 'logFile'>,
  ): Promise<SandboxRunResult>;
  snapshot(): Promise<SandboxSnapshot>;
  rollback(snapshot: SandboxSnapshot): Promise<void>;
  /** Removes the instance and everything it wrote; the cached image is untouched. */
  destroy(): Promise<void>;
}
