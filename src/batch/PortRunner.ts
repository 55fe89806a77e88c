import type { ValidBatchEntry } from './BatchEntry.ts';
import type { EntryResult } from './EntryResult.ts';

/**
 * A port either finishes (with any verdict) or is interrupted and stays resumable; `wallMs` is
 * the time it had run until then (0 when it never started), added to the entry's wall time
 * when a later run finishes it.
 */
export type RunOutcome = { kind: 'finished'; result: EntryResult } | { kind: 'interrupted'; wallMs: number };

/**
 * Runs the port of one entry somewhere: a child process here (`childPortRunner`) or a job on a
 * queue that some worker picks up (`queuePortRunner`). The batch scheduler only sees this.
 */
export interface PortRunner {
  run(
    entry: ValidBatchEntry,
    io: {
      /** Aborted on Ctrl+C: stop (the port keeps its checkpoint) and answer `interrupted`. */
      signal: AbortSignal;
      /** Called when the port really starts (a queued job: when a worker takes it). */
      onStarted: (where: string) => void;
    },
  ): Promise<RunOutcome>;
}
