import { type LockAttempt, takeLockFile } from './takeLockFile.ts';

export interface WaitForLockOptions {
  /** How long to wait for a live holder before giving up. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Between attempts; 250 ms unless told. */
  pollMs?: number;
}

export type LockWait =
  | { acquired: true; release: () => void }
  /** Not taken: the holder stayed alive past the time limit, or the signal was aborted. */
  | { acquired: false; holder: number; reason: 'timeout' | 'aborted' };

/**
 * Takes `file` as a lock (takeLockFile: a dead holder's lock is taken over), waiting while a
 * live process holds it. Processes that share a machine-wide or folder-wide step (one apt-get at
 * a time, one update of shared lists) queue on it; the caller turns a refusal into its own error.
 */
export async function waitForLockFile(file: string, options: WaitForLockOptions): Promise<LockWait> {
  const deadline = Date.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? 250;
  for (;;) {
    const attempt: LockAttempt = takeLockFile(file);
    if (attempt.acquired) return attempt;
    if (options.signal?.aborted) return { acquired: false, holder: attempt.holder, reason: 'aborted' };
    if (Date.now() >= deadline) return { acquired: false, holder: attempt.holder, reason: 'timeout' };
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
