import { lstat, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Job, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import { RecipeCache } from '../../recipes/RecipeCache.ts';
import { recipeCacheDir } from '../../recipes/recipeCacheDir.ts';
import type { ValidBatchEntry } from '../BatchEntry.ts';
import { childPortRunner, DEFAULT_INTERRUPT_GRACE_MS } from '../childPortRunner.ts';
import { failedResult } from '../EntryResult.ts';
import { fetchFlags, portFlags } from '../portFlags.ts';
import { checkPortJob } from './checkPortJob.ts';
import {
  type PortJob,
  type PortJobReturn,
  portJobSchema,
  RETURNED_FILE_MAX_BYTES,
  RETURNED_FILES,
} from './PortJob.ts';
import { connectQueue, QUEUE_NAME, scrub } from './queueConnection.ts';
import type { WorkerEvent } from './WorkerEvent.ts';

/**
 * How long a job's lock lasts without renewal; a worker that died (SIGKILL, lost machine) is
 * noticed after about this long and its job goes back to the queue for another worker.
 */
export const DEFAULT_LOCK_MS = 60_000;
/** How often one job may lose its worker before it counts as failed. */
export const MAX_STALLED_COUNT = 2;
/** Time beyond the ports' interrupt grace for handing their jobs back before giving up on Redis. */
const CLOSE_MARGIN_MS = 15_000;
const ERROR_REPEAT_MS = 60_000;

export interface QueueWorkerOptions {
  url: string;
  concurrency: number;
  /** Where this worker's ports write OUT/NAME/. */
  out: string;
  lockMs?: number;
  signal: AbortSignal;
  onEvent: (event: WorkerEvent) => void;
  env?: NodeJS.ProcessEnv;
  /** The port command before SOURCE (tests); default the real binary. */
  command?: readonly string[];
  /** Take jobs whose SOURCE is a path on this machine (folder, tarball, file:// URL). */
  allowLocalSources?: boolean;
  /** `--allow-private-addresses`: the operator's, never a job's. */
  allowPrivateAddresses?: boolean;
}

/**
 * A machine's share of a distributed batch: takes port jobs off the queue, runs each as a child
 * `rvport port`, and returns the result with the recipe-cache entries it produced. Runs until the
 * signal; then running ports are interrupted (they keep their checkpoint here) and their jobs go
 * back to the queue. `queueLost`: Redis did not answer while stopping (BullMQ's connections may
 * go on retrying; the caller should end the process).
 */
export async function runQueueWorker(options: QueueWorkerOptions): Promise<{ queueLost: boolean }> {
  const connection = await connectQueue(options.url);
  const id = `${hostname()}:${process.pid}`;
  const lockMs = options.lockMs ?? DEFAULT_LOCK_MS;
  const stop = new AbortController();
  const cache = new RecipeCache(recipeCacheDir(options.env ?? process.env));

  const processor = async (job: Job<PortJob, PortJobReturn>, token?: string): Promise<PortJobReturn> => {
    const parsed = portJobSchema.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(`not an rvport port job: ${parsed.error.issues[0]?.message}`);
    }
    const data = parsed.data;
    const jobId = String(job.id);
    const check = checkPortJob(data, { allowLocalSources: !!options.allowLocalSources });
    if (!check.ok) {
      // answered, not thrown: the coordinator records the reason, and a retry would only refuse again
      options.onEvent({ type: 'refused', job: jobId, reason: check.reason });
      const refused = failedResult(
        { key: data.key, line: data.line, source: data.source, name: null },
        'invalid',
        `refused by the worker ${id}: ${check.reason}`,
        { worker: id },
      );
      return { result: refused, recipes: null, files: {} };
    }
    const entry: ValidBatchEntry = {
      key: data.key,
      line: data.line,
      source: check.source,
      name: check.name,
      invalid: null,
    };
    options.onEvent({ type: 'started', job: jobId, name: entry.name, try: job.attemptsMade + 1 });
    const runner = childPortRunner({
      out: options.out,
      // a job's SOURCE is the queue's, not a person's: no ssh keys, no redirects
      portFlags: [
        ...portFlags(data.settings),
        ...fetchFlags({ queued: true, allowPrivateAddresses: !!options.allowPrivateAddresses }),
      ],
      worker: id,
      ...(data.timeoutMs !== undefined ? { timeoutMs: data.timeoutMs } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.command ? { command: options.command } : {}),
    });
    const outcome = await runner.run(entry, { signal: stop.signal, onStarted: () => {} });
    if (outcome.kind === 'interrupted') {
      options.onEvent({ type: 'interrupted', job: jobId, name: data.name });
      await job.updateData({ ...data, earlierMs: (data.earlierMs ?? 0) + outcome.wallMs });
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const result = { ...outcome.result, wallMs: outcome.result.wallMs + (data.earlierMs ?? 0) };
    options.onEvent({
      type: 'finished',
      job: jobId,
      name: data.name,
      verdict: result.verdict,
      wallMs: result.wallMs,
    });
    // A port that ended without a result may have met a passing fault: BullMQ retries the job.
    if (result.verdict === 'crashed') throw new Error(result.message);
    return {
      result,
      recipes: await recipesOf(cache, entry.name),
      files: await filesOf(options.out, entry.name),
    };
  };

  const worker = new Worker<PortJob, PortJobReturn>(QUEUE_NAME, processor, {
    connection,
    concurrency: options.concurrency,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: MAX_STALLED_COUNT,
    name: id,
  });
  // A Redis that is down fails every few seconds with the same message: say it once a minute.
  const lastSaid = new Map<string, number>();
  worker.on('error', (error) => {
    const now = Date.now();
    if (now - (lastSaid.get(error.message) ?? Number.NEGATIVE_INFINITY) < ERROR_REPEAT_MS) return;
    lastSaid.set(error.message, now);
    options.onEvent({ type: 'error', message: scrub(error.message, options.url) });
  });
  options.onEvent({ type: 'ready', worker: id, queue: QUEUE_NAME, concurrency: options.concurrency });
  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  options.onEvent({ type: 'stopping' });
  const closing = worker.close();
  stop.abort();
  // Ports stop within their grace time; a queue that no longer answers must not keep us here.
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = await Promise.race([
    closing.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), DEFAULT_INTERRUPT_GRACE_MS + CLOSE_MARGIN_MS);
    }),
  ]);
  clearTimeout(timer);
  if (gaveUp) options.onEvent({ type: 'error', message: 'the queue did not answer; stopped without it' });
  connection.disconnect();
  return { queueLost: gaveUp };
}

async function recipesOf(cache: RecipeCache, name: string): Promise<string | null> {
  const bundle = await cache.exportBundle(name);
  return (JSON.parse(bundle) as { entries: unknown[] }).entries.length > 0 ? bundle : null;
}

async function filesOf(out: string, port: string): Promise<PortJobReturn['files']> {
  const files: PortJobReturn['files'] = {};
  for (const name of RETURNED_FILES) {
    const file = join(out, port, name);
    try {
      const info = await lstat(file); // rvport's own outputs are plain files, never links
      if (!info.isFile() || info.size > RETURNED_FILE_MAX_BYTES) continue;
      files[name] = await readFile(file, 'utf8');
    } catch {
      // not written by this port
    }
  }
  return files;
}
