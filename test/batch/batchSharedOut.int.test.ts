import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAME } from '../../src/batch/queue/queueConnection.ts';
import { runQueueWorker } from '../../src/batch/queue/runQueueWorker.ts';
import { startRedis } from '../helpers/redisServer.ts';
import { runCli, startCli, waitFor } from '../helpers/rvportCli.ts';

// Two real `rvport batch` processes on one --out. Batch A is a queue batch that holds its results
// in memory while its job waits; batch B is started meanwhile. B must not run beside A (A would
// then write its own copy of the results over B's), and no result ever recorded may disappear.
const fake = fileURLToPath(new URL('../../src/batch/testing/fakePort.mjs', import.meta.url));
let redis: Awaited<ReturnType<typeof startRedis>>;
let work: string;

beforeAll(async () => {
  redis = await startRedis();
  work = mkdtempSync(join(tmpdir(), 'rvport-shared-out-'));
  writeFileSync(join(work, 'a.txt'), 'ftp://example.invalid/a\ndebian:ok\n');
  writeFileSync(join(work, 'b.txt'), 'ftp://example.invalid/b\n./missing-b\n');
});
afterAll(async () => {
  await redis?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const recorded = (): string[] => {
  const file = join(work, 'shared', 'batch.json');
  return existsSync(file) ? Object.keys(JSON.parse(readFileSync(file, 'utf8')).results).sort() : [];
};

describe('two batches on one OUT', () => {
  it('refuses the second while the first runs, and loses no result', async () => {
    const seen = new Set<string>();
    const stillThere = () => {
      const now = recorded();
      for (const key of seen) expect(now, `${key} disappeared from batch.json`).toContain(key);
      for (const key of now) seen.add(key);
    };
    const env = { RVPORT_HOME: join(work, 'home') };
    const a = startCli(['batch', 'a.txt', '--queue', redis.url, '--out', 'shared'], { cwd: work, env });
    const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
    try {
      await waitFor(() => recorded().length === 1, 60_000, "batch A's invalid entry");
      const until = Date.now() + 60_000;
      while (((await queue.getJobCounts('wait')).wait ?? 0) < 1) {
        if (Date.now() > until) throw new Error("batch A's job never queued");
        await new Promise((r) => setTimeout(r, 100));
      }
      stillThere();

      const b = await runCli(['batch', 'b.txt', '--out', 'shared'], { cwd: work, env });
      expect(b.code).toBe(1);
      expect(b.stderr).toMatch(
        new RegExp(
          `another rvport batch \\(process ${a.child.pid}\\) is running in .*shared; wait for it to end or use another --out`,
        ),
      );
      stillThere();

      // A's job is taken by a worker; A records it and ends
      const stop = new AbortController();
      const worker = runQueueWorker({
        url: redis.url,
        concurrency: 1,
        out: join(work, 'worker-out'),
        signal: stop.signal,
        onEvent: () => {},
        env: { RVPORT_HOME: join(work, 'worker-home') },
        command: [process.execPath, fake],
      });
      const ended = await a.done;
      stop.abort();
      await worker;
      expect(ended.code, ended.stderr).toBe(1); // one invalid entry
      stillThere();

      const again = await runCli(['batch', 'b.txt', '--out', 'shared'], { cwd: work, env });
      expect(again.code, again.stderr).toBe(1);
      stillThere();
      expect(recorded()).toEqual(
        ['./missing-b', 'debian:ok', 'ftp://example.invalid/a', 'ftp://example.invalid/b'].sort(),
      );
    } finally {
      a.child.kill('SIGKILL');
      await queue.close();
    }
  }, 180_000);
});
