import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis } from '../helpers/redisServer.ts';
import { type CliRun, runCli, startCli, waitFor } from '../helpers/rvportCli.ts';

// A queue on a real redis-server that requires a password, plain and over TLS (redis-server's
// own TLS with a certificate made here; the rvport processes trust it through
// NODE_EXTRA_CA_CERTS). A real coordinator and a real worker process do one round trip each: the
// batch's only entry is a folder, which the worker refuses and reports back, so no port runs.
// The password must appear in no output of either process.
const PASSWORD = 'S3cr3t-p@ss/w0rd%';
let work: string;
let certs: { cert: string; key: string; ca: string };

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-queue-auth-'));
  mkdirSync(join(work, 'zlib'));
  writeFileSync(join(work, 'zlib', 'Makefile'), 'all:\n');
  writeFileSync(join(work, 'list.txt'), `${join(work, 'zlib')}\n`);
  const cert = join(work, 'cert.pem');
  const key = join(work, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  certs = { cert, key, ca: cert };
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const env = (name: string) => ({ RVPORT_HOME: join(work, `home-${name}`), NODE_EXTRA_CA_CERTS: certs.cert });
const secretIn = (run: Pick<CliRun, 'stdout' | 'stderr'>) =>
  [PASSWORD, encodeURIComponent(PASSWORD)].some((p) => run.stdout.includes(p) || run.stderr.includes(p));

/** A real worker and a real coordinator on `url`; the coordinator's results. */
async function roundTrip(url: string, name: string, workerEnv: Record<string, string> = {}) {
  const worker = startCli(
    ['worker', ...(workerEnv.RVPORT_QUEUE_URL ? [] : ['--queue', url]), '--out', `w-${name}`],
    {
      cwd: work,
      env: { ...env(`${name}-w`), ...workerEnv },
    },
  );
  let workerErr = '';
  worker.child.stderr?.on('data', (d) => {
    workerErr += d;
  });
  try {
    await waitFor(
      () => workerErr.includes('waiting for jobs') || worker.child.exitCode !== null,
      60_000,
      'the worker',
    );
    expect(workerErr).toContain('waiting for jobs');
    const batch = await runCli(['batch', 'list.txt', '--queue', url, '--out', `b-${name}`, '--json'], {
      cwd: work,
      env: env(`${name}-b`),
    });
    const rows = readFileSync(join(work, `b-${name}`, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    return { batch, rows, workerErr: () => workerErr };
  } finally {
    worker.child.kill('SIGINT');
    const stopped = await worker.done;
    expect(secretIn(stopped)).toBe(false);
  }
}

describe('a queue that needs a password', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD });
  });
  afterAll(async () => redis?.stop());

  it('works with the password in the URL, and shows it nowhere', async () => {
    expect(redis.url).toContain(encodeURIComponent(PASSWORD));
    const { batch, rows } = await roundTrip(redis.url, 'auth');
    expect(rows).toEqual([
      expect.objectContaining({
        name: 'zlib',
        verdict: 'invalid',
        message: expect.stringMatching(/refused by the worker .*--allow-local-sources/),
      }),
    ]);
    expect(batch.code).toBe(1);
    expect(secretIn(batch)).toBe(false);
  }, 120_000);

  it('takes the URL from RVPORT_QUEUE_URL, off the command line', async () => {
    const { rows } = await roundTrip(redis.url, 'env', { RVPORT_QUEUE_URL: redis.url });
    expect(rows).toEqual([expect.objectContaining({ verdict: 'invalid' })]);
  }, 120_000);

  it('says clearly that a wrong or missing password does not get in, without printing it', async () => {
    const wrong = redis.url.replace(encodeURIComponent(PASSWORD), 'N0t-the-0ne');
    for (const [url, why] of [
      [wrong, /WRONGPASS/],
      [`redis://127.0.0.1:${redis.port}`, /NOAUTH/],
    ] as const) {
      for (const args of [
        ['worker', '--queue', url],
        ['batch', 'list.txt', '--queue', url, '--out', 'refused'],
      ]) {
        const run = await runCli(args, { cwd: work, env: env('refused') });
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(
          /^rvport: cannot reach the queue at redis:\/\/(:\*\*\*@)?127\.0\.0\.1:\d+\/?: /,
        );
        expect(run.stderr).toMatch(why);
        expect(run.stderr).not.toContain('N0t-the-0ne');
        expect(run.stderr).not.toMatch(/\n\s+at /);
      }
    }
  }, 120_000);
});

describe('a queue over TLS (rediss://) with a password', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD, tls: certs });
  });
  afterAll(async () => redis?.stop());

  it('works end to end over TLS', async () => {
    expect(redis.url).toMatch(/^rediss:\/\//);
    const { batch, rows } = await roundTrip(redis.url, 'tls');
    expect(rows).toEqual([expect.objectContaining({ verdict: 'invalid' })]);
    expect(secretIn(batch)).toBe(false);
  }, 120_000);

  it('uses TLS for an upper-case REDISS:// too (never the password in the clear)', async () => {
    const { rows } = await roundTrip(redis.url.replace(/^rediss:/, 'REDISS:'), 'upper');
    expect(rows).toEqual([expect.objectContaining({ verdict: 'invalid' })]);
  }, 120_000);

  it('is a clear error to speak plain redis:// to the TLS port', async () => {
    const run = await runCli(['worker', '--queue', redis.url.replace(/^rediss:/, 'redis:')], {
      cwd: work,
      env: env('plain'),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^rvport: cannot reach the queue at redis:\/\/:\*\*\*@localhost:\d+\/?: /);
    expect(secretIn(run)).toBe(false);
  }, 60_000);
});
