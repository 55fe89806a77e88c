import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OutputTail } from '../process/OutputTail.ts';
import type { ValidBatchEntry } from './BatchEntry.ts';
import type { PortRunner, RunOutcome } from './PortRunner.ts';
import { readPortResult } from './readPortResult.ts';

export const RVPORT_BIN = fileURLToPath(new URL('../../bin/rvport.js', import.meta.url));
/** How long an interrupted port may take to save its checkpoint before it is killed. */
export const DEFAULT_INTERRUPT_GRACE_MS = 60_000;
/** The port's JSON result is small; this only bounds a runaway. */
const STDOUT_CAPTURE_BYTES = 4 * 1024 * 1024;
const STDERR_CAPTURE_BYTES = 16 * 1024;
/**
 * util-linux `setpriv --pdeathsig`: the port dies with the batch or worker that started it
 * (even on SIGKILL), so a killed batch never leaves a port running that a rerun would start
 * again beside it. The port's own checkpoint lets the rerun resume it.
 */
const SETPRIV = '/usr/bin/setpriv';

export interface ChildPortRunnerOptions {
  /** The batch's output folder: ports write OUT/NAME/, their stderr goes to OUT/NAME/port.log. */
  out: string;
  /** Flags passed to every `rvport port` (see `portFlags`). */
  portFlags: readonly string[];
  /** Job time-out of one port, wall time; none when unset. */
  timeoutMs?: number;
  /** Who runs it, recorded in the result (`local`, or a queue worker's id). */
  worker?: string;
  env?: NodeJS.ProcessEnv;
  /** The port command before SOURCE; default the real binary: `node bin/rvport.js port`. */
  command?: readonly string[];
  interruptGraceMs?: number;
}

/**
 * Each port is the real `rvport port SOURCE --json --out OUT` in a child process: the same
 * isolation, checkpoints and interrupt handling as a port run by hand. The child gets its own
 * process group, so a Ctrl+C on the terminal reaches it once, through us.
 */
export function childPortRunner(options: ChildPortRunnerOptions): PortRunner {
  const command = options.command ?? [process.execPath, RVPORT_BIN, 'port'];
  const worker = options.worker ?? 'local';
  const grace = options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS;
  const guard = existsSync(SETPRIV) ? [SETPRIV, '--pdeathsig', 'KILL', '--'] : [];
  return {
    async run(entry: ValidBatchEntry, io): Promise<RunOutcome> {
      const outDir = join(options.out, entry.name);
      await mkdir(outDir, { recursive: true });
      if (io.signal.aborted) return { kind: 'interrupted', wallMs: 0 };
      const argv = [...guard, ...command, entry.source, '--json', '--out', options.out, ...options.portFlags];
      const started = performance.now();
      const log = createWriteStream(join(outDir, 'port.log'), { flags: 'a' });
      const child = spawn(argv[0] as string, argv.slice(1), {
        env: { ...process.env, ...options.env },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      io.onStarted(worker);
      const stdout = new OutputTail(STDOUT_CAPTURE_BYTES);
      const stderr = new OutputTail(STDERR_CAPTURE_BYTES);
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => {
        stderr.push(chunk);
        log.write(chunk);
      });

      let timedOut = false;
      let killTimer: NodeJS.Timeout | undefined;
      const stop = () => {
        if (killTimer || child.exitCode !== null) return;
        child.kill('SIGINT');
        killTimer = setTimeout(() => {
          try {
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }, grace);
      };
      const timeout =
        options.timeoutMs !== undefined
          ? setTimeout(() => {
              timedOut = true;
              stop();
            }, options.timeoutMs)
          : undefined;
      io.signal.addEventListener('abort', stop, { once: true });

      const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
        (resolve, reject) => {
          child.on('error', reject);
          child.on('close', (code, signal) => resolve({ code, signal }));
        },
      ).finally(() => {
        clearTimeout(timeout);
        clearTimeout(killTimer);
        io.signal.removeEventListener('abort', stop);
      });
      await new Promise<void>((resolve) => log.end(resolve));
      return readPortResult(
        entry,
        {
          exitCode: exit.code ?? 128,
          signal: exit.signal,
          stdout: stdout.text(),
          stderr: stderr.text(),
          wallMs: Math.round(performance.now() - started),
          timedOut,
        },
        worker,
      );
    },
  };
}
