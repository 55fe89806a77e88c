import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAME } from '../../src/batch/queue/queueConnection.ts';
import { ensureCorpus } from '../helpers/corpus.ts';
import { makePortHome } from '../helpers/portHome.ts';
import { startRedis } from '../helpers/redisServer.ts';
import { runCli, startCli, waitFor } from '../helpers/rvportCli.ts';

// Issue 7: the batch runner on real ports of the smallest corpus packages, through the real
// binary: locally with two workers, interrupted and resumed, and distributed over a BullMQ queue
// with one of two workers killed mid-job. Each run has fresh RVPORT_HOMEs (no recipe cache hits).
const PACKAGES = ['sl', 'libinih', 'luajit', 'memtest86+'];
const MINUTES = 60_000;

let corpus: string;
let work: string;
const homes: string[] = [];
const home = () => {
  const h = makePortHome('rvport-batch-home-');
  homes.push(h);
  return h;
};

interface Row {
  line: number;
  name: string | null;
  verdict: string;
  buildSystem: string | null;
  errorCategory: string | null;
  attempts: number;
  worker: string;
  key: string;
}
const readRows = (out: string): Row[] =>
  readFileSync(join(work, out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
/** What must not depend on where and how fast the ports ran. */
const stable = (rows: Row[]) =>
  rows.map(({ line, name, verdict, buildSystem, errorCategory, attempts }) => ({
    line,
    name,
    verdict,
    buildSystem,
    errorCategory,
    attempts,
  }));
const summaryWithoutTimes = (out: string) =>
  readFileSync(join(work, out, 'summary.md'), 'utf8').replace(/\d+\.\d s\b/g, 'T');

beforeAll(async () => {
  corpus = await ensureCorpus(PACKAGES);
  work = mkdtempSync(join(tmpdir(), 'rvport-batch-work-'));
  writeFileSync(
    join(work, 'list.txt'),
    [
      '# the batch of the integration test',
      ...PACKAGES.map((p) => join(corpus, p)),
      'https://example.invalid/x;rm -rf ~   # shell metacharacters',
      './no-such-package                      # missing path',
      'ftp://example.invalid/pkg              # unknown scheme',
      '',
    ].join('\n'),
  );
}, 30 * MINUTES);

afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

const expected = [
  { line: 2, name: 'sl', verdict: 'verified', buildSystem: 'make' },
  { line: 3, name: 'libinih', verdict: 'verified', buildSystem: 'meson' },
  { line: 4, name: 'luajit', verdict: 'escalated', errorCategory: 'ARCHITECTURE_IMPOSSIBLE' },
  { line: 5, name: 'memtest86+', verdict: 'escalated', errorCategory: 'REQUIRES_HARDWARE' },
  { line: 6, name: null, verdict: 'invalid' },
  { line: 7, name: null, verdict: 'invalid' },
  { line: 8, name: null, verdict: 'invalid' },
];

describe.sequential('rvport batch on real packages', () => {
  const localHome = home();

  it(
    'ports a local batch with --workers 2; invalid entries are failed entries and the batch goes on',
    async () => {
      const { code, stdout, stderr } = await runCli(
        ['batch', 'list.txt', '--workers', '2', '--offline', '--out', 'local', '--json'],
        {
          cwd: work,
          env: { RVPORT_HOME: localHome },
        },
      );
      expect(code, stderr).toBe(1); // some entries failed
      const rows = readRows('local');
      expect(rows).toHaveLength(7);
      expect(rows).toEqual(expected.map((e) => expect.objectContaining(e)));
      expect(rows.find((r) => r.line === 6)).toMatchObject({
        message: expect.stringMatching(/shell metacharacters/),
      });
      expect(rows.find((r) => r.line === 7)).toMatchObject({
        message: expect.stringMatching(/no such file/),
      });
      expect(rows.find((r) => r.line === 8)).toMatchObject({
        message: expect.stringMatching(/unknown SOURCE scheme/),
      });
      const totals = JSON.parse(stdout);
      expect(totals).toMatchObject({ entries: 7, verified: 2, failed: 5, pending: 0, interrupted: false });
      expect(totals.byBuildSystem).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ buildSystem: 'make', entries: 3, verified: 1, failed: 2 }),
          expect.objectContaining({ buildSystem: 'meson', entries: 1, verified: 1 }),
        ]),
      );
      const summary = readFileSync(join(work, 'local', 'summary.md'), 'utf8');
      expect(summary).toContain('7 entries: 2 verified, 5 failed, 0 not finished.');
      expect(summary).toMatch(/\| 3 \| libinih \| verified \| meson \| - \| 0 \| \d+\.\d s \| \$0\.00 \|/);
      expect(summary).toContain('| ARCHITECTURE_IMPOSSIBLE | 1 | luajit |');
      expect(summary).toContain('| (invalid entry) | 3 |');
      // live progress names the ports
      expect(stderr).toMatch(/started +sl/);
      expect(stderr).toMatch(/done +libinih \(verified/);
      expect(stderr).toMatch(/failed +luajit \(escalated/);
      // each port's own outputs are there
      expect(existsSync(join(work, 'local', 'sl', 'recipe.md'))).toBe(true);
      expect(existsSync(join(work, 'local', 'luajit', 'escalation.md'))).toBe(true);
    },
    20 * MINUTES,
  );

  it(
    'skips finished entries when run again',
    async () => {
      const before = readFileSync(join(work, 'local', 'results.jsonl'), 'utf8');
      const { code, stderr } = await runCli(['batch', 'list.txt', '--out', 'local'], {
        cwd: work,
        env: { RVPORT_HOME: localHome },
      });
      expect(code).toBe(1);
      expect(stderr).toContain('7 entries, 7 finished in an earlier run, 0 to do');
      expect(stderr).not.toMatch(/started/);
      expect(readFileSync(join(work, 'local', 'results.jsonl'), 'utf8')).toBe(before);
    },
    5 * MINUTES,
  );

  it(
    'stops cleanly on Ctrl+C and resumes the interrupted port on the next run',
    async () => {
      writeFileSync(join(work, 'one.txt'), `${join(corpus, 'sl')}\n`);
      const env = { RVPORT_HOME: home() };
      const { child, done } = startCli(['batch', 'one.txt', '--offline', '--out', 'int'], { cwd: work, env });
      const log = join(work, 'int', 'sl', 'port.log');
      await waitFor(
        () => existsSync(log) && readFileSync(log, 'utf8').includes('[build]'),
        10 * MINUTES,
        "sl's build",
      );
      child.kill('SIGINT');
      const stopped = await done;
      expect(stopped.code, stopped.stderr).toBe(130);
      expect(stopped.stderr).toMatch(/stopped +sl \(resumes on the next run\)/);
      expect(JSON.parse(readFileSync(join(work, 'int', 'batch.json'), 'utf8')).results).toEqual({});
      expect(readFileSync(join(work, 'int', 'summary.md'), 'utf8')).toContain('1 not finished');

      const again = await runCli(['batch', 'one.txt', '--offline', '--out', 'int'], { cwd: work, env });
      expect(again.code, again.stderr).toBe(0);
      expect(readRows('int')).toEqual([expect.objectContaining({ name: 'sl', verdict: 'verified' })]);
      expect(readFileSync(log, 'utf8')).toMatch(/resuming the interrupted port of sl/);
    },
    20 * MINUTES,
  );

  it(
    'distributes the same batch over a queue; a worker killed mid-job loses nothing and counts nothing twice',
    async () => {
      const redis = await startRedis();
      const workers: ReturnType<typeof startCli>[] = [];
      try {
        const coordinatorHome = home();
        const logs: string[] = [];
        for (const name of ['w1', 'w2']) {
          const w = startCli(
            [
              'worker',
              '--queue',
              redis.url,
              '--concurrency',
              '1',
              // short, so the dead worker's job is noticed soon; long enough for a loaded machine
              '--lock-seconds',
              '10',
              '--out',
              `out-${name}`,
              // the list's sources are folders of this machine
              '--allow-local-sources',
            ],
            { cwd: work, env: { RVPORT_HOME: home() } },
          );
          const index = logs.push('') - 1;
          w.child.stderr?.on('data', (d) => {
            logs[index] += d;
          });
          workers.push(w);
        }
        await waitFor(() => logs.every((l) => l.includes('waiting for jobs')), 2 * MINUTES, 'the workers');
        const coordinator = startCli(
          ['batch', 'list.txt', '--queue', redis.url, '--offline', '--out', 'queue'],
          {
            cwd: work,
            env: { RVPORT_HOME: coordinatorHome },
          },
        );
        // kill the first worker that starts one of the slower ports (tens of seconds), mid-job
        let victim = -1;
        await waitFor(
          () => {
            victim = logs.findIndex((l) => /started (sl|libinih) /.test(l));
            return victim !== -1;
          },
          10 * MINUTES,
          'a worker to start sl or libinih',
        );
        const killedJob = /started (sl|libinih) /.exec(logs[victim] as string)?.[1];
        workers[victim]?.child.kill('SIGKILL');
        const { code, stderr } = await coordinator.done;
        expect(code, stderr).toBe(1);

        const rows = readRows('queue');
        expect(new Set(rows.map((r) => r.key)).size).toBe(7);
        expect(stable(rows)).toEqual(stable(readRows('local')));
        expect(summaryWithoutTimes('queue')).toBe(summaryWithoutTimes('local'));
        const survivor = logs[1 - victim] as string;
        expect(survivor).toMatch(new RegExp(`started ${killedJob} `));
        expect(rows.find((r) => r.name === killedJob)?.worker).not.toBe('local');

        const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
        try {
          expect(await queue.getJobCounts('completed', 'failed', 'active', 'wait', 'delayed')).toEqual({
            completed: 4,
            failed: 0,
            active: 0,
            wait: 0,
            delayed: 0,
          });
          const jobs = await queue.getJobs(['completed']);
          const redone = jobs.filter((j) => j.stalledCounter > 0).map((j) => j.data.name);
          expect(redone).toEqual([killedJob]);
        } finally {
          await queue.close();
        }
        // the workers' recipe-cache entries are in the coordinator's cache, their reports in OUT
        expect(readdirSync(join(coordinatorHome, 'recipes')).sort()).toEqual(['libinih', 'sl']);
        expect(existsSync(join(work, 'queue', 'sl', 'recipe.md'))).toBe(true);
        expect(existsSync(join(work, 'queue', 'luajit', 'escalation.md'))).toBe(true);
      } finally {
        for (const w of workers) w.child.kill('SIGINT');
        await Promise.all(workers.map((w) => w.done));
        await redis.stop();
      }
    },
    20 * MINUTES,
  );
});
