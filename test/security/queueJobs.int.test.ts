import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortJobReturn } from '../../src/batch/queue/PortJob.ts';
import { QUEUE_NAME } from '../../src/batch/queue/queueConnection.ts';
import { startRedis } from '../helpers/redisServer.ts';
import { startCli, waitFor } from '../helpers/rvportCli.ts';

// Hostile jobs written straight onto a real queue (as anyone who can reach the Redis server
// could), taken by a real `rvport worker` process. Each must be refused with its reason recorded
// on the job, no port may start, and nothing outside the worker's folders may appear or change.
let redis: Awaited<ReturnType<typeof startRedis>>;
let work: string;
let worker: ReturnType<typeof startCli>;
let workerLog = '';
let queue: Queue;
let events: QueueEvents;
const canaryName = `rvport-canary-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  redis = await startRedis();
  work = mkdtempSync(join(tmpdir(), 'rvport-hostile-jobs-'));
  mkdirSync(join(work, 'home'));
  // a real source folder and tarball on the worker's machine, and a host file they must not touch
  mkdirSync(join(work, 'private', 'zlib'), { recursive: true });
  writeFileSync(join(work, 'private', 'zlib', 'Makefile'), 'all:\n\ttouch /tmp/owned\n');
  writeFileSync(join(work, 'private', 'zlib-1.3.tar.gz'), 'not really a tarball');
  writeFileSync(join(work, 'canary.txt'), 'untouched\n');
  worker = startCli(['worker', '--queue', redis.url, '--out', join(work, 'out'), '--concurrency', '2'], {
    cwd: work,
    env: { RVPORT_HOME: join(work, 'home') },
  });
  worker.child.stderr?.on('data', (d) => {
    workerLog += d;
  });
  await waitFor(() => workerLog.includes('waiting for jobs'), 60_000, 'the worker');
  queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
  events = new QueueEvents(QUEUE_NAME, { connection: { url: redis.url } });
  await events.waitUntilReady();
}, 90_000);

afterAll(async () => {
  worker?.child.kill('SIGINT');
  await worker?.done;
  await events?.close();
  await queue?.close();
  await redis?.stop();
  rmSync(join(tmpdir(), canaryName), { recursive: true, force: true });
  if (work) rmSync(work, { recursive: true, force: true });
});

const job = (source: string, name: string, extra: Record<string, unknown> = {}) => ({
  rvportJob: 1,
  key: source,
  line: 1,
  source,
  name,
  settings: { force: false },
  ...extra,
});

async function submit(data: Record<string, unknown>): Promise<Job> {
  const added = await queue.add('port', data, { attempts: 2 });
  await added.waitUntilFinished(events, 60_000).catch(() => {});
  return (await Job.fromId(queue, added.id as string)) as Job;
}

/** Everything under the test's folder except the worker's own RVPORT_HOME. */
function snapshot(): string[] {
  const list: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (path === join(work, 'home')) continue;
      list.push(name.isFile() ? `${path}:${readFileSync(path, 'utf8')}` : path);
      if (name.isDirectory()) walk(path);
    }
  };
  walk(work);
  return list.sort();
}

describe('a worker and hostile queue jobs', () => {
  it.each([
    [
      'a name that climbs out of OUT',
      job('debian:zlib', `../../../../../../../tmp/${canaryName}`),
      /package name .* is not the one its SOURCE gives \('zlib'\)/,
    ],
    ["a name that is not its SOURCE's", job('debian:zlib', 'openssl'), /is not the one its SOURCE gives/],
    ['shell metacharacters', job('https://example.invalid/x;touch /tmp/owned', 'x'), /shell metacharacters/],
    ['a SOURCE that is a flag', job('--upload-pack=touch:/tmp/owned', 'x'), /may not start with '-'/],
    // ESC c resets a terminal; the flag refusal quotes the SOURCE as it is
    ['terminal escapes in the SOURCE', job('-x:\u001bc', 'x'), /may not start with '-': -x:\\u001bc$/],
    ['an unknown scheme', job('ftp://example.invalid/zlib.tar.gz', 'zlib'), /unknown SOURCE scheme/],
    [
      'a folder on the worker',
      job('/will/be/replaced', 'zlib'),
      /path on the worker's machine.*--allow-local-sources/,
    ],
    ['a tarball on the worker', job('/will/be/replaced.tar.gz', 'zlib'), /path on the worker's machine/],
    ['a file:// URL', job('file:///will/be/replaced', 'zlib'), /path on the worker's machine/],
  ])('refuses %s, with the reason on the job', async (what, data, reason) => {
    const local: Record<string, string> = {
      'a folder on the worker': join(work, 'private', 'zlib'),
      'a tarball on the worker': join(work, 'private', 'zlib-1.3.tar.gz'),
      'a file:// URL': `file://${join(work, 'private', 'zlib')}`,
    };
    const hostile = local[what] ? { ...data, source: local[what], key: local[what] } : data;
    const before = snapshot();
    const done = await submit(hostile);
    expect(await done.getState()).toBe('completed');
    const answer = done.returnvalue as PortJobReturn;
    expect(answer.result).toMatchObject({ verdict: 'invalid', message: expect.stringMatching(reason) });
    expect(answer.result.message).toMatch(/^refused by the worker /);
    expect(answer.recipes).toBeNull();
    expect(done.attemptsMade).toBeLessThanOrEqual(1); // refused once, not retried
    expect(snapshot()).toEqual(before);
    expect(existsSync(join(work, 'out'))).toBe(false); // no port folder, no port.log: no port ran
    expect(existsSync(join(tmpdir(), canaryName))).toBe(false);
    expect(existsSync('/tmp/owned')).toBe(false);
    expect(workerLog).toMatch(new RegExp(`refused job ${done.id}: `));
    expect(workerLog).not.toContain('\u001b'); // shown escaped, never obeyed
  });

  it('refuses a job with settings it does not know (no raw flags reach a port), without a retry', async () => {
    const done = await submit(
      job('debian:zlib', 'zlib', { settings: { force: false, flags: ['--keep-sandbox'] } }),
    );
    expect(await done.getState()).toBe('failed');
    expect(done.failedReason).toMatch(/not an rvport port job/);
    expect(done.attemptsMade).toBe(1);
    expect(existsSync(join(work, 'out'))).toBe(false);
  });

  it('never started a port', () => {
    expect(workerLog).not.toMatch(/started /);
    expect(readFileSync(join(work, 'canary.txt'), 'utf8')).toBe('untouched\n');
  });
});
