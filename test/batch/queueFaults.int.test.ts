import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchEntry } from '../../src/batch/BatchEntry.ts';
import type { BatchEvent } from '../../src/batch/BatchEvent.ts';
import { BatchStore } from '../../src/batch/BatchStore.ts';
import { QUEUE_NAME } from '../../src/batch/queue/queueConnection.ts';
import { openQueuePortRunner } from '../../src/batch/queue/queuePortRunner.ts';
import { runQueueWorker } from '../../src/batch/queue/runQueueWorker.ts';
import { describeWorkerEvent } from '../../src/batch/queue/WorkerEvent.ts';
import { runBatch } from '../../src/batch/runBatch.ts';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';
import { startRedis } from '../helpers/redisServer.ts';
import { waitFor } from '../helpers/rvportCli.ts';

// The queue's fault handling with a stand-in port (src/batch/testing/fakePort.mjs) and a real
// redis-server: fast, so every path is covered; test/batch/batch.int.test.ts does real ports.
const fake = fileURLToPath(new URL('../../src/batch/testing/fakePort.mjs', import.meta.url));

let redis: Awaited<ReturnType<typeof startRedis>>;
let dir: string;
beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), 'rvport-queue-faults-'));
});
afterAll(async () => {
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const entry = (name: string, line = 1): BatchEntry & { name: string; invalid: null } => ({
  key: `debian:${name}`,
  line,
  source: `debian:${name}`,
  name,
  invalid: null,
});

function startWorker(name: string) {
  const controller = new AbortController();
  const home = join(dir, `home-${name}`);
  const log: string[] = [];
  const done = runQueueWorker({
    url: redis.url,
    concurrency: 1,
    out: join(dir, `out-${name}`),
    lockMs: 2_000,
    signal: controller.signal,
    onEvent: (event) => log.push(describeWorkerEvent(event)),
    env: { RVPORT_HOME: home, FAKE_GATE: join(dir, 'gate') },
    command: [process.execPath, fake],
  });
  return {
    log,
    home,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

async function coordinate(
  entries: BatchEntry[],
  options: { out: string; timeoutMs?: number; signal?: AbortSignal; onEvent?: (e: BatchEvent) => void },
) {
  const store = new BatchStore(options.out);
  await store.load();
  const cache = new RecipeCache(join(options.out, 'coordinator-recipes'));
  const runner = await openQueuePortRunner({
    url: redis.url,
    batchId: store.batchId,
    settings: { force: false },
    out: options.out,
    cache,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  try {
    const outcome = await runBatch({
      entries,
      store,
      runner,
      concurrency: entries.length,
      force: false,
      signal: options.signal ?? new AbortController().signal,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
    return { ...outcome, store, cache };
  } finally {
    await runner.close();
  }
}

describe.sequential('a batch on a BullMQ queue', () => {
  it('brings back results, recipe-cache entries and text outputs from the worker', async () => {
    const worker = startWorker('a');
    try {
      const out = join(dir, 'ship');
      const { summary, store, cache } = await coordinate([entry('ok', 1), entry('escalate', 2)], { out });
      expect(summary).toMatchObject({ verified: 1, failed: 1, pending: 0 });
      expect(store.result('debian:ok')).toMatchObject({
        verdict: 'verified',
        worker: expect.stringMatching(/:\d+$/),
      });
      expect(store.result('debian:escalate')).toMatchObject({
        verdict: 'escalated',
        errorCategory: 'ARCHITECTURE_IMPOSSIBLE',
      });
      expect(await cache.get('ok', 'fake-image')).toMatchObject({
        package: 'ok',
        source: { spec: 'debian:ok' },
      });
      expect(readFileSync(join(out, 'ok', 'recipe.md'), 'utf8')).toBe('# ok for riscv64\n');
      expect(readFileSync(join(out, 'escalate', 'escalation.md'), 'utf8')).toContain('no riscv64 backend');
    } finally {
      await worker.stop();
    }
  });

  it('retries a port that crashed once, then reports it failed', async () => {
    const worker = startWorker('b');
    try {
      const { store } = await coordinate([entry('crash')], { out: join(dir, 'crash') });
      expect(store.result('debian:crash')).toMatchObject({
        verdict: 'crashed',
        message: expect.stringMatching(/the job failed after 2 tries: .*killed by SIGSEGV/),
      });
      expect(worker.log.filter((l) => l.startsWith('started crash'))).toEqual([
        expect.stringMatching(/try 1\)$/),
        expect.stringMatching(/try 2\)$/),
      ]);
    } finally {
      await worker.stop();
    }
  });

  it('stops a port at the job time-out, without a retry', async () => {
    const worker = startWorker('c');
    try {
      const { store } = await coordinate([entry('slow')], { out: join(dir, 'timeout'), timeoutMs: 1_000 });
      expect(store.result('debian:slow')).toMatchObject({ verdict: 'timed_out' });
      expect(worker.log.filter((l) => l.startsWith('started slow'))).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });

  it('keeps jobs through a stopped worker and a stopped coordinator, and counts each once', async () => {
    const out = join(dir, 'stops');
    const first = startWorker('d');
    // the coordinator is stopped (Ctrl+C) once the job runs; the job stays on the queue
    const stopCoordinator = new AbortController();
    const stopped = await coordinate([entry('gated')], {
      out,
      signal: stopCoordinator.signal,
      onEvent: (e) => {
        if (e.type === 'started') stopCoordinator.abort();
      },
    });
    expect(stopped.interrupted).toBe(true);
    expect(stopped.store.result('debian:gated')).toBeUndefined();
    // the worker is stopped (Ctrl+C) mid-job: the port is interrupted, the job goes back
    await waitFor(() => existsSync(join(dir, 'out-d', 'gated', 'fake.pid')), 20_000, 'the port to run');
    await first.stop();
    expect(first.log).toContainEqual('interrupted gated: back to the queue');

    const second = startWorker('e');
    try {
      writeFileSync(join(dir, 'gate'), '');
      const resumed = await coordinate([entry('gated')], { out });
      expect(resumed.summary).toMatchObject({ verified: 1, pending: 0 });
      expect(resumed.store.batchId).toBe(stopped.store.batchId);
      expect(second.log.filter((l) => l.startsWith('finished gated'))).toHaveLength(1);
      const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
      try {
        const jobs = (await queue.getJobs(['completed'])).filter((j) => j.data.name === 'gated');
        expect(jobs).toHaveLength(1);
        // the interrupted run's time went with the job and counts in the result
        const earlier = jobs[0]?.data.earlierMs ?? 0;
        expect(earlier).toBeGreaterThan(0);
        expect(resumed.store.result('debian:gated')?.wallMs).toBeGreaterThan(earlier);
      } finally {
        await queue.close();
      }
      await waitFor(() => existsSync(join(out, 'gated', 'recipe.md')), 5_000, 'the returned recipe.md');
    } finally {
      await second.stop();
    }
  });
});
