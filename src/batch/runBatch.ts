import { type BatchEntry, isValidEntry, type ValidBatchEntry } from './BatchEntry.ts';
import type { BatchEvent } from './BatchEvent.ts';
import type { BatchStore } from './BatchStore.ts';
import { type EntryResult, failedResult } from './EntryResult.ts';
import type { PortRunner } from './PortRunner.ts';
import { type BatchSummary, summarizeBatch } from './summarizeBatch.ts';

export interface RunBatchOptions {
  entries: readonly BatchEntry[];
  /** Loaded; results are recorded in it as entries finish. */
  store: BatchStore;
  runner: PortRunner;
  /** Ports in flight at once (local: `--workers`; queue: how many jobs are queued at a time). */
  concurrency: number;
  /** Run every entry again, forgetting earlier results. */
  force: boolean;
  signal: AbortSignal;
  onEvent?: (event: BatchEvent) => void;
  /** Called with the totals after every recorded result (writes the report as the batch goes). */
  onProgress?: (summary: BatchSummary) => Promise<void>;
}

export interface BatchOutcome {
  summary: BatchSummary;
  /** Entries are left for the next run (Ctrl+C, or a port that was interrupted). */
  interrupted: boolean;
}

/**
 * Runs the entries of a batch that have no result yet, `concurrency` at a time, and records each
 * result as it arrives. Invalid entries are recorded as failed without running. On abort no new
 * port starts, running ones are interrupted (they stay resumable) and the batch returns.
 */
export async function runBatch(options: RunBatchOptions): Promise<BatchOutcome> {
  const { entries, store, runner, signal } = options;
  const emit = options.onEvent ?? (() => {});
  if (options.force) await store.clear();
  const report = async () => {
    await options.onProgress?.(summarizeBatch(entries, store.results()));
  };
  const record = async (result: EntryResult): Promise<EntryResult> => {
    const recorded = await store.record(result);
    await report();
    return recorded;
  };

  const pending: ValidBatchEntry[] = [];
  let skipped = 0;
  for (const entry of entries) {
    const done = store.result(entry.key);
    if (done) {
      skipped += 1;
      emit({ type: 'skipped', entry, result: done });
    } else if (isValidEntry(entry)) {
      pending.push(entry);
    }
  }
  const invalid = entries.filter((e) => !isValidEntry(e) && !store.result(e.key));
  emit({ type: 'plan', entries: entries.length, skipped, pending: pending.length + invalid.length });
  for (const entry of invalid) {
    const result = failedResult(entry, 'invalid', entry.invalid ?? 'invalid entry');
    await store.record(result);
    emit({ type: 'finished', entry, result });
  }
  await report();

  let next = 0;
  const lane = async () => {
    while (!signal.aborted) {
      const entry = pending[next++];
      if (!entry) return;
      emit({ type: 'queued', entry });
      let outcome: Awaited<ReturnType<PortRunner['run']>>;
      try {
        outcome = await runner.run(entry, {
          signal,
          onStarted: (where) => emit({ type: 'started', entry, where }),
        });
      } catch (error) {
        outcome = {
          kind: 'finished',
          result: failedResult(entry, 'crashed', `the port could not be run: ${(error as Error).message}`),
        };
      }
      if (outcome.kind === 'interrupted') {
        await store.addUnfinishedTime(entry.key, outcome.wallMs);
        emit({ type: 'interrupted', entry });
        continue;
      }
      emit({ type: 'finished', entry, result: await record(outcome.result) });
    }
  };
  const lanes = Math.max(1, Math.min(options.concurrency, pending.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  const summary = summarizeBatch(entries, store.results());
  return { summary, interrupted: summary.pending > 0 };
}
