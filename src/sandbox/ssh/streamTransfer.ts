import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export interface TransferResult {
  /** The exit status of the ssh process (the remote script's). */
  exitCode: number;
  /** The tail of what ssh (and, sending, the host tar) wrote on stderr. */
  stderr: string;
  timedOut: boolean;
  /** Receiving: more than the byte limit came and the transfer was stopped. */
  tooLarge: boolean;
  bytes: number;
}

const STDERR_BYTES = 16 * 1024;

function start(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
  stdio: 'pipe-in' | 'pipe-out',
) {
  const [file = '', ...args] = argv;
  return spawn(file, args, {
    env: { ...env },
    detached: true, // its own process group: a time limit kills all of it
    stdio: stdio === 'pipe-in' ? ['pipe', 'ignore', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  });
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

function exitOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.on('error', () => resolve(127));
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + 9 : 1)));
  });
}

function tailOf(child: ChildProcess, into: { text: string }): void {
  child.stderr?.on('data', (chunk: Buffer) => {
    into.text = (into.text + chunk.toString('utf8')).slice(-STDERR_BYTES);
  });
}

/** Pipes a host producer (tar of a host tree) into an ssh command's stdin. */
export async function sendStream(
  producer: readonly string[],
  ssh: readonly string[],
  env: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<TransferResult> {
  const stderr = { text: '' };
  const source = start(producer, env, 'pipe-out');
  const sink = start(ssh, env, 'pipe-in');
  tailOf(source, stderr);
  tailOf(sink, stderr);
  let bytes = 0;
  source.stdout?.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  sink.stdin?.on('error', () => {});
  source.stdout?.pipe(sink.stdin as NodeJS.WritableStream);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(source);
    killGroup(sink);
  }, timeoutMs);
  const [produced, exitCode] = await Promise.all([exitOf(source), exitOf(sink)]);
  clearTimeout(timer);
  if (produced !== 0 && exitCode === 0)
    return {
      exitCode: 1,
      stderr: `${stderr.text}\nthe host tar failed (${produced})`,
      timedOut,
      tooLarge: false,
      bytes,
    };
  return { exitCode, stderr: stderr.text, timedOut, tooLarge: false, bytes };
}

/** Writes an ssh command's stdout to a new host file, stopping it past `maxBytes`. */
export async function receiveStream(
  ssh: readonly string[],
  env: Readonly<Record<string, string>>,
  file: string,
  maxBytes: number,
  timeoutMs: number,
): Promise<TransferResult> {
  const stderr = { text: '' };
  const child = start(ssh, env, 'pipe-out');
  tailOf(child, stderr);
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  let bytes = 0;
  let tooLarge = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (tooLarge) return;
    bytes += chunk.length;
    if (bytes > maxBytes) {
      tooLarge = true;
      killGroup(child);
      return;
    }
    if (!out.write(chunk)) {
      child.stdout?.pause();
      out.once('drain', () => child.stdout?.resume());
    }
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, timeoutMs);
  const exitCode = await exitOf(child);
  clearTimeout(timer);
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return { exitCode, stderr: stderr.text, timedOut, tooLarge, bytes };
}
