import { createHash, randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isProcessAlive } from '../../process/isProcessAlive.ts';

/** Takeovers of a guard left by a dead taker before giving up (each level needs another crash). */
const MAX_GUARD_DEPTH = 4;
/** Rounds of waiting for a live process that is taking over the same stale lock. */
const MAX_ROUNDS = 200;
const ROUND_WAIT_MS = 5;

export type LockAttempt =
  | { acquired: true; release: () => void }
  /** Held by a live process (its pid; -1 when it could not be told). */
  | { acquired: false; holder: number };

/**
 * An exclusive lock file holding `PID TOKEN`. It is created with link(2) from a complete
 * temporary file, so nobody ever reads a half-written lock, and only one creator wins.
 *
 * A lock left by a dead process is taken over without a race: the taker first takes a guard
 * named after the stale lock's exact content (the same algorithm, one level down), checks under
 * it that the lock still holds that content, and renames its own lock over it. Two processes
 * that both saw the same stale lock compete for the same guard, so one wins and the other then
 * finds a live holder; a late taker finds other content and backs off. Plain delete-and-create
 * would let the second one delete the first one's fresh lock.
 */
export function takeLockFile(file: string, alive: (pid: number) => boolean = isProcessAlive): LockAttempt {
  return take(file, 0, alive);
}

function take(file: string, depth: number, alive: (pid: number) => boolean): LockAttempt {
  const token = `${process.pid} ${randomBytes(8).toString('hex')}\n`;
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, token, { flag: 'wx' });
  const acquired = (): LockAttempt => ({ acquired: true, release: () => releaseIfOurs(file, token) });
  try {
    let holder = -1;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      try {
        linkSync(temp, file);
        return acquired();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const seen = readLock(file);
      if (seen === undefined) continue; // released meanwhile: try again
      holder = seen.pid;
      if (Number.isInteger(seen.pid) && seen.pid > 0 && alive(seen.pid)) return { acquired: false, holder };
      if (depth >= MAX_GUARD_DEPTH) break;
      const guardFile = `${file}.takeover-${createHash('sha256').update(seen.raw).digest('hex').slice(0, 16)}`;
      const guard = take(guardFile, depth + 1, alive);
      if (!guard.acquired) {
        pause(ROUND_WAIT_MS); // a live process is taking it over: see what it leaves
        continue;
      }
      try {
        if (readLock(file)?.raw !== seen.raw) continue; // someone else took it over first
        renameSync(temp, file);
        return acquired();
      } finally {
        guard.release();
      }
    }
    return { acquired: false, holder };
  } finally {
    rmSync(temp, { force: true });
  }
}

function readLock(file: string): { raw: string; pid: number } | undefined {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // Locks of older versions hold the pid alone.
  return { raw, pid: Number.parseInt(raw.trim().split(/\s+/)[0] ?? '', 10) };
}

function releaseIfOurs(file: string, token: string): void {
  if (readLock(file)?.raw === token) rmSync(file, { force: true });
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
