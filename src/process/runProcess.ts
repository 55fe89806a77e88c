import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { constants } from 'node:os';
import { dirname } from 'node:path';
import { OutputTail } from './OutputTail.ts';

/** Bytes of each stream kept in memory; the rest goes only to the log file. */
export const DEFAULT_CAPTURE_BYTES = 256 * 1024;
/** After the main process exits, how long its pipes may stay open before we stop reading. */
const DRAIN_GRACE_MS = 200;

export interface RunProcessOptions {
  /** A shell command line (run with `/bin/sh -c`) or an argv array run without a shell. */
  command: string | readonly string[];
  cwd?: string;
  /** Added to (and overriding) the current environment. */
  env?: Record<string, string | undefined>;
  /** Replace the environment entirely instead of extending it. */
  clearEnv?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Bytes of stdout and of stderr kept in the result (the tail); default 256 KiB each. */
  captureBytes?: number;
  /** When set, the full interleaved output is appended to this file. */
  logFile?: string;
  /**
   * At most this many bytes of output (both streams) are accepted: past it the log gets a last
   * line saying so, the process group is killed and the result says `outputLimited`.
   */
  outputLimitBytes?: number;
  input?: string | Buffer;
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
  /** Called once the process exists, with its pid (which is also its process group id). */
  onSpawn?: (pid: number) => void;
}

export interface ProcessResult {
  /** The exit status; 128 + signal number when the process was killed by a signal. */
  exitCode: number;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** True when a stream produced more than `captureBytes` and only its tail is kept. */
  truncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  /** Killed because it wrote more than `outputLimitBytes`. */
  outputLimited: boolean;
}

/**
 * Runs a command in its own process group, streaming its output (so a command that prints
 * gigabytes neither hangs on a full pipe nor grows memory: only the tail is kept), and kills the
 * whole group on time-out or abort.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  const started = performance.now();
  const captureBytes = options.captureBytes ?? DEFAULT_CAPTURE_BYTES;
  const [file, args] =
    typeof options.command === 'string'
      ? ['/bin/sh', ['-c', options.command]]
      : [options.command[0], options.command.slice(1)];
  if (!file) return Promise.reject(new TypeError('runProcess: empty command'));

  const env = options.clearEnv ? {} : { ...process.env };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }

  let log: WriteStream | undefined;
  if (options.logFile) {
    mkdirSync(dirname(options.logFile), { recursive: true });
    log = createWriteStream(options.logFile, { flags: 'a' });
  }

  return new Promise<ProcessResult>((resolve, reject) => {
    if (options.signal?.aborted) {
      const result = emptyResult(started, { aborted: true });
      if (log) log.end(() => resolve(result));
      else resolve(result);
      return;
    }
    const child = spawn(file, args, {
      cwd: options.cwd,
      env,
      detached: true, // own process group, so we can kill everything it started
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const out = new OutputTail(captureBytes);
    const err = new OutputTail(captureBytes);
    let timedOut = false;
    let aborted = false;
    let outputLimited = false;
    let outputBytes = 0;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer =
      options.timeoutMs !== undefined && options.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            killGroup();
          }, options.timeoutMs)
        : undefined;
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    // When the log file falls behind, stop reading until it drains: the pipe then fills and
    // the command waits, instead of our memory filling up.
    const toLog = (chunk: Buffer) => {
      if (outputLimited) return;
      outputBytes += chunk.length;
      if (options.outputLimitBytes !== undefined && outputBytes > options.outputLimitBytes) {
        outputLimited = true;
        log?.write(
          `\n[rvport: the command wrote more than ${options.outputLimitBytes} bytes of output and was stopped]\n`,
        );
        killGroup();
        return;
      }
      if (!log || log.write(chunk)) return;
      child.stdout.pause();
      child.stderr.pause();
      log.once('drain', () => {
        child.stdout.resume();
        child.stderr.resume();
      });
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (outputLimited) return;
      out.push(chunk);
      toLog(chunk);
      options.onStdout?.(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (outputLimited) return;
      err.push(chunk);
      toLog(chunk);
      options.onStderr?.(chunk);
    });
    child.stdin.on('error', () => {}); // a command that does not read its input is not an error
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();

    const finish = () => {
      if (settled || !exit) return;
      settled = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const { code, signal } = exit;
      const exitCode = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      const result: ProcessResult = {
        exitCode,
        signal,
        stdout: out.text(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        stdoutBytes: out.totalBytes,
        stderrBytes: err.totalBytes,
        durationMs: performance.now() - started,
        timedOut,
        aborted,
        outputLimited,
      };
      if (log) log.end(() => resolve(result));
      else resolve(result);
    };

    child.on('error', (error) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      settled = true;
      // The log file is closed before the caller hears of the failure (it may remove the folder).
      if (log) log.end(() => reject(error));
      else reject(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Background children may keep the pipes open; stop waiting for them after a grace period.
      setTimeout(() => {
        if (settled) return;
        killGroup();
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, DRAIN_GRACE_MS).unref();
    });
    child.on('close', finish);
  });
}

function emptyResult(started: number, flags: { aborted: boolean }): ProcessResult {
  return {
    exitCode: 130,
    signal: null,
    stdout: '',
    stderr: '',
    truncated: false,
    stdoutBytes: 0,
    stderrBytes: 0,
    durationMs: performance.now() - started,
    timedOut: false,
    aborted: flags.aborted,
    outputLimited: false,
  };
}
