import type { BatchEntry } from './BatchEntry.ts';
import type { EntryResult } from './EntryResult.ts';

/** What a running batch tells its progress display. */
export type BatchEvent =
  | { type: 'plan'; entries: number; skipped: number; pending: number }
  /** Finished in an earlier run of the batch; not run again. */
  | { type: 'skipped'; entry: BatchEntry; result: EntryResult }
  /** Handed to the runner (for a queue: put on the queue). */
  | { type: 'queued'; entry: BatchEntry }
  | { type: 'started'; entry: BatchEntry; where: string }
  | { type: 'finished'; entry: BatchEntry; result: EntryResult }
  /** Stopped by Ctrl+C; the port keeps its checkpoint and the next run resumes it. */
  | { type: 'interrupted'; entry: BatchEntry };
