import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { writeFileAtomic } from '../../fs/index.ts';
import { isRecipeCacheError, type RecipeCache } from '../../recipes/RecipeCache.ts';
import type { ValidBatchEntry } from '../BatchEntry.ts';
import { type EntryResult, failedResult } from '../EntryResult.ts';
import type { PortRunner, RunOutcome } from '../PortRunner.ts';
import type { PortSettings } from '../portFlags.ts';
import { type PortJob, portJobReturnSchema, RETURNED_FILES } from './PortJob.ts';
import { printable } from './printable.ts';
import { connectQueue, QUEUE_NAME } from './queueConnection.ts';

/** Tries of a job whose port crashed (a dead worker's job is retried by stalled-job detection). */
export const DEFAULT_JOB_ATTEMPTS = 2;
/** Finished jobs stay on the queue this long, so a coordinator that was stopped can collect them. */
const KEEP_FINISHED_SECONDS = 7 * 24 * 3600;

export interface QueuePortRunnerOptions {
  url: string;
  /** From the batch state; with the entry's key it names the job, so a rerun finds it again. */
  batchId: string;
  settings: PortSettings;
  timeoutMs?: number;
  /** The coordinator's OUT: each finished job's small text outputs are written to OUT/NAME/. */
  out: string;
  /** The coordinator's recipe cache: the workers' new entries are merged into it. */
  cache: RecipeCache;
  attempts?: number;
}

export type QueuePortRunner = PortRunner & { close(): Promise<void> };

/**
 * The coordinator's side of a distributed batch: each entry becomes a BullMQ job with a stable
 * id, and its result is awaited. On Ctrl+C the jobs stay on the queue (workers go on with them)
 * and the next run of the batch collects them instead of adding them again.
 */
export async function openQueuePortRunner(options: QueuePortRunnerOptions): Promise<QueuePortRunner> {
  const connection = await connectQueue(options.url);
  const eventsConnection = connection.duplicate();
  eventsConnection.on('error', () => {});
  const queue = new Queue<PortJob, unknown>(QUEUE_NAME, { connection });
  const events = new QueueEvents(QUEUE_NAME, { connection: eventsConnection });
  queue.on('error', () => {});
  events.on('error', () => {});
  // every entry of a batch waits on these at once (one listener each)
  queue.setMaxListeners(0);
  events.setMaxListeners(0);
  await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  const attempts = options.attempts ?? DEFAULT_JOB_ATTEMPTS;

  const activeListeners = new Map<string, () => void>();
  events.on('active', ({ jobId }) => activeListeners.get(jobId)?.());

  return {
    async run(entry: ValidBatchEntry, io): Promise<RunOutcome> {
      const jobId = `${options.batchId}-${createHash('sha256').update(entry.key).digest('hex').slice(0, 16)}`;
      const data: PortJob = {
        rvportJob: 1,
        key: entry.key,
        line: entry.line,
        source: entry.source,
        name: entry.name,
        settings: options.settings,
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      };
      const started = Date.now();
      let announced: string | undefined;
      const announce = async () => {
        const job = await Job.fromId(queue, jobId);
        const where = job?.processedBy ?? 'a worker';
        if (where === announced) return; // the same start seen twice (event and state check)
        announced = where;
        io.onStarted(where);
      };
      activeListeners.set(jobId, () => void announce().catch(() => {}));
      try {
        // An existing job of this id (an earlier run of the batch) is reused, not added again.
        const job = await queue.add('port', data, {
          jobId,
          attempts,
          backoff: { type: 'fixed', delay: 5_000 },
          removeOnComplete: { age: KEEP_FINISHED_SECONDS },
          removeOnFail: { age: KEEP_FINISHED_SECONDS },
        });
        if ((await job.getState()) === 'active') await announce();
        const finished = job.waitUntilFinished(events);
        finished.catch(() => {}); // still pending when the batch is interrupted
        const aborted = new Promise<'aborted'>((resolve) => {
          if (io.signal.aborted) resolve('aborted');
          io.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
        });
        let value: unknown;
        try {
          value = await Promise.race([finished, aborted]);
        } catch (error) {
          const failed = await Job.fromId(queue, jobId);
          const tries = failed
            ? ` after ${failed.attemptsMade} ${failed.attemptsMade === 1 ? 'try' : 'tries'}`
            : '';
          return {
            kind: 'finished',
            result: failedResult(entry, 'crashed', `the job failed${tries}: ${(error as Error).message}`, {
              wallMs: Date.now() - started,
              worker: failed?.processedBy ?? 'queue',
            }),
          };
        }
        // the job goes on without us; its worker counts the time it runs
        if (value === 'aborted') return { kind: 'interrupted', wallMs: 0 };
        return { kind: 'finished', result: await collect(entry, value, options) };
      } finally {
        activeListeners.delete(jobId);
      }
    },
    async close() {
      await events.close();
      await queue.close();
      eventsConnection.disconnect();
      connection.disconnect();
    },
  };
}

/**
 * Takes in a worker's answer: its recipe-cache entries into ours (only this entry's package, with
 * the checks of `rvport cache import`), its text outputs into OUT/NAME/.
 */
async function collect(
  entry: ValidBatchEntry,
  value: unknown,
  options: QueuePortRunnerOptions,
): Promise<EntryResult> {
  const parsed = portJobReturnSchema.safeParse(value);
  if (!parsed.success) {
    return failedResult(
      entry,
      'crashed',
      `a worker returned no valid result: ${parsed.error.issues[0]?.message}`,
    );
  }
  const { result, recipes, files } = parsed.data;
  let refusedBundle = '';
  if (recipes !== null) {
    try {
      await options.cache.importBundle(recipes, `the recipes of worker ${result.worker}`, {
        onlyPackage: entry.name,
      });
    } catch (error) {
      if (!isRecipeCacheError(error)) throw error;
      refusedBundle = `; its recipe bundle was refused: ${printable(error.message)}`;
    }
  }
  await mkdir(join(options.out, entry.name), { recursive: true });
  for (const name of RETURNED_FILES) {
    const text = files[name];
    if (text !== undefined) await writeFileAtomic(join(options.out, entry.name, name), text);
  }
  // The coordinator's own view of the entry wins over whatever the worker echoed back, and the
  // worker's words reach our terminal and reports without control characters.
  return {
    ...result,
    key: entry.key,
    line: entry.line,
    source: entry.source,
    name: entry.name,
    message: `${printable(result.message)}${refusedBundle}`,
    worker: printable(result.worker),
    buildSystem: result.buildSystem === null ? null : printable(result.buildSystem),
    errorCategory: result.errorCategory === null ? null : printable(result.errorCategory),
  };
}
