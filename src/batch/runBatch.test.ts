import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ValidBatchEntry } from './BatchEntry.ts';
import type { BatchEvent } from './BatchEvent.ts';
import { BatchStateError, BatchStore } from './BatchStore.ts';
import type { PortRunner, RunOutcome } from './PortRunner.ts';
import { runBatch } from './runBatch.ts';
import { invalidEntry, portResult, validEntry } from './testing/batchFixtures.ts';

const entries = [
  validEntry('sl', 1),
  validEntry('cjson', 2),
  invalidEntry('ftp://x', 3, 'unknown SOURCE scheme ftp://'),
  validEntry('luajit', 4),
];

/** A runner whose ports end when the test says so. */
function fakeRunner(decide: (entry: ValidBatchEntry) => RunOutcome | 'hang') {
  const runs: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const runner: PortRunner = {
    async run(entry, io) {
      runs.push(entry.name);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      io.onStarted('local');
      try {
        await new Promise((r) => setImmediate(r));
        const outcome = decide(entry);
        if (outcome !== 'hang') return outcome;
        return await new Promise<RunOutcome>((resolve) => {
          if (io.signal.aborted) resolve({ kind: 'interrupted', wallMs: 4_000 });
          io.signal.addEventListener('abort', () => resolve({ kind: 'interrupted', wallMs: 4_000 }), {
            once: true,
          });
        });
      } finally {
        inFlight -= 1;
      }
    },
  };
  return { runner, runs, maxInFlight: () => maxInFlight };
}

const verifiedAll = (entry: ValidBatchEntry): RunOutcome => ({ kind: 'finished', result: portResult(entry) });

async function openStore(dir = mkdtempSync(join(tmpdir(), 'rvport-batch-'))) {
  const store = new BatchStore(dir);
  await store.load();
  return store;
}

describe('runBatch', () => {
  it('runs every valid entry at most N at a time and records invalid ones as failed', async () => {
    const store = await openStore();
    const fake = fakeRunner(verifiedAll);
    const events: BatchEvent[] = [];
    const { summary, interrupted } = await runBatch({
      entries,
      store,
      runner: fake.runner,
      concurrency: 2,
      force: false,
      signal: new AbortController().signal,
      onEvent: (e) => events.push(e),
    });
    expect(interrupted).toBe(false);
    expect(fake.runs.sort()).toEqual(['cjson', 'luajit', 'sl']);
    expect(fake.maxInFlight()).toBe(2);
    expect(summary).toMatchObject({ entries: 4, finished: 4, verified: 3, failed: 1, pending: 0 });
    expect(store.result('ftp://x')).toMatchObject({
      verdict: 'invalid',
      message: 'unknown SOURCE scheme ftp://',
    });
    expect(events[0]).toEqual({ type: 'plan', entries: 4, skipped: 0, pending: 4 });
    expect(events.filter((e) => e.type === 'started').map((e) => e.entry.name)).toHaveLength(3);
  });

  it('resumes: a second run skips finished entries, and runs them all again with force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-batch-'));
    const first = fakeRunner((e) => (e.name === 'cjson' ? 'hang' : verifiedAll(e)));
    const controller = new AbortController();
    const events: BatchEvent[] = [];
    const running = runBatch({
      entries,
      store: await openStore(dir),
      runner: first.runner,
      concurrency: 1,
      force: false,
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'started' && e.entry.name === 'cjson') controller.abort(); // Ctrl+C
      },
    });
    const stopped = await running;
    expect(stopped.interrupted).toBe(true);
    expect(first.runs).toEqual(['sl', 'cjson']); // luajit never started
    expect(events.at(-1)).toMatchObject({ type: 'interrupted', entry: { name: 'cjson' } });

    // what a Ctrl+C or SIGKILL leaves on disk is enough to go on
    const second = fakeRunner(verifiedAll);
    const resumed = await runBatch({
      entries,
      store: await openStore(dir),
      runner: second.runner,
      concurrency: 2,
      force: false,
      signal: new AbortController().signal,
    });
    expect(second.runs.sort()).toEqual(['cjson', 'luajit']);
    expect(resumed.summary).toMatchObject({ finished: 4, pending: 0 });
    // the interrupted run's time counts: 4 s before Ctrl+C, 10 s after
    expect(resumed.summary.rows.find((r) => r.entry.name === 'cjson')?.result?.wallMs).toBe(14_000);
    expect(resumed.summary.rows.find((r) => r.entry.name === 'luajit')?.result?.wallMs).toBe(10_000);

    const third = fakeRunner(verifiedAll);
    const store = await openStore(dir);
    const before = store.batchId;
    await runBatch({
      entries,
      store,
      runner: third.runner,
      concurrency: 2,
      force: true,
      signal: new AbortController().signal,
    });
    expect(third.runs.sort()).toEqual(['cjson', 'luajit', 'sl']);
    expect(store.batchId).not.toBe(before);
  });

  it('records a runner that throws as a crashed entry and goes on', async () => {
    const store = await openStore();
    const fake = fakeRunner((e) => {
      if (e.name === 'sl') throw new Error('spawn failed');
      return verifiedAll(e);
    });
    const { summary } = await runBatch({
      entries,
      store,
      runner: fake.runner,
      concurrency: 1,
      force: false,
      signal: new AbortController().signal,
    });
    expect(store.result('debian:sl')).toMatchObject({
      verdict: 'crashed',
      message: 'the port could not be run: spawn failed',
    });
    expect(summary).toMatchObject({ verified: 2, failed: 2, pending: 0 });
  });

  it('reports the totals after every result', async () => {
    const seen: number[] = [];
    await runBatch({
      entries,
      store: await openStore(),
      runner: fakeRunner(verifiedAll).runner,
      concurrency: 1,
      force: false,
      signal: new AbortController().signal,
      onProgress: async (s) => {
        seen.push(s.finished);
      },
    });
    expect(seen).toEqual([1, 2, 3, 4]);
  });
});

describe('BatchStore', () => {
  it('writes batch.json after every result, atomically, and reads it back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-batch-'));
    const store = await openStore(dir);
    const [sl, cjson] = entries as [ValidBatchEntry, ValidBatchEntry];
    await Promise.all([store.record(portResult(sl)), store.record(portResult(cjson))]);
    const onDisk = JSON.parse(readFileSync(join(dir, 'batch.json'), 'utf8'));
    expect(Object.keys(onDisk.results).sort()).toEqual(['debian:cjson', 'debian:sl']);
    const again = await openStore(dir);
    expect(again.batchId).toBe(store.batchId);
    expect(again.result('debian:sl')).toEqual(portResult(sl));
  });

  it('saves a new batch id at once, so a stopped batch finds its queued jobs again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-batch-'));
    const store = await openStore(dir);
    expect((await openStore(dir)).batchId).toBe(store.batchId);
  });

  it('refuses a damaged state file instead of starting over silently', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-batch-'));
    writeFileSync(join(dir, 'batch.json'), '{"rvportBatch": 1, "batc');
    await expect(openStore(dir)).rejects.toThrow(BatchStateError);
    writeFileSync(join(dir, 'batch.json'), '{"something": "else"}');
    await expect(openStore(dir)).rejects.toThrow(/no rvport batch state/);
  });

  it('lets one batch at a time hold an OUT folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rvport-batch-'));
    const release = await new BatchStore(dir).lock();
    await expect(new BatchStore(dir).lock()).rejects.toMatchObject({
      code: 'batch-locked',
      message: expect.stringMatching(new RegExp(`another rvport batch \\(process ${process.pid}\\)`)),
    });
    release();
    (await new BatchStore(dir).lock())();
  });
});
