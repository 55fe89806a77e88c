import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';
import type { RecipeEntry } from '../../src/recipes/RecipeEntry.ts';
import { imageKeys } from '../../src/sandbox/findImages.ts';
import { acquireSource, headTree, parseSource } from '../../src/sources/index.ts';
import { runCli, startCli, waitFor } from '../helpers/rvportCli.ts';

// "Verified" means built from this source, now: a recipe-cache entry answers a port only for the
// source it was built from. Real binary, real git, real files. The RVPORT_HOME has the records of
// an emulated image but no image: a port the cache does not answer is stopped once it starts.
let home: string;
let work: string;
const image = imageKeys('trixie').rootfs;
const env = () => ({ RVPORT_HOME: home });
const gitId = ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false'];
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', [...gitId, ...args], { cwd, encoding: 'utf8' }).trim();

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rvport-stale-home-'));
  work = mkdtempSync(join(tmpdir(), 'rvport-stale-work-'));
  mkdirSync(join(home, 'sandbox', 'images', image, 'tree'), { recursive: true });
  writeFileSync(
    join(home, 'sandbox', 'images', image, 'image.json'),
    JSON.stringify({ key: image, kind: 'rootfs', suite: 'trixie', architecture: 'riscv64' }),
  );
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

function tree(name: string, text: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'Makefile'), 'all:\n\ttrue\n');
  writeFileSync(join(dir, 'zlib.c'), text);
  return dir;
}

async function treeOf(spec: string): Promise<string> {
  const acquired = await acquireSource(parseSource(spec), {
    workDir: join(work, 'trees', String(Math.random())),
  });
  return headTree(acquired.gitDir);
}

/** A verified entry for `spec`, as a port of it would have written. */
async function verifiedEntry(spec: string, source: Partial<RecipeEntry['source']>): Promise<void> {
  const name = parseSource(spec).name;
  await new RecipeCache(join(home, 'recipes')).put({
    formatVersion: 1,
    package: name,
    imageId: image,
    source: { spec, ...source },
    buildSystem: 'make',
    plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: ['make'] }] },
    dependencies: [],
    patches: [],
    artifacts: [{ path: 'libz.so.1', machine: 'riscv64', bits: 64, abi: 'lp64d', type: 'shared' }],
    verification: { verdict: 'verified', reason: 'libz.so.1 is riscv64' },
    durations: { total: 1000 },
    recipe: `# ${name} for riscv64\n`,
    createdAt: '2026-12-01T00:00:00.000Z',
    rvportVersion: '0.1.0',
  });
}

const PORT = ['--mode', 'emulated', '--offline', '--out', 'out'];

/** A port the cache must not answer: its note, then the port starts (and is stopped there). */
async function portedAgain(spec: string): Promise<string> {
  const { child, done } = startCli(['port', spec, ...PORT], { cwd: work, env: env() });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  await waitFor(() => /» init|exited|error/.test(stderr), 60_000, 'the port to start');
  child.kill('SIGINT');
  const stopped = await done;
  expect(stopped.stderr).not.toMatch(/recipe cache hit/);
  expect(stopped.stderr).toMatch(/» init/);
  return stopped.stderr;
}

describe('a recipe-cache entry answers only for the source it was built from', () => {
  it('a git URL whose HEAD moved on is ported again, and the port says why', async () => {
    const repo = tree('zlib', 'int z(void) { return 1; }\n');
    git(repo, 'init', '-q', '.');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'one');
    const built = git(repo, 'rev-parse', 'HEAD');
    const url = `file://${repo}`;
    await verifiedEntry(url, { url, commit: built });
    // control: upstream where the entry was made, the cache answers, and says for what
    const hit = await runCli(['port', url, ...PORT, '--json'], { cwd: work, env: env() });
    expect(hit.code, hit.stderr).toBe(0);
    expect(JSON.parse(hit.stdout)).toMatchObject({ cacheHit: true, result: 'verified' });
    expect(hit.stderr).toMatch(
      new RegExp(`recipe cache hit for zlib \\(verified, .*; for commit ${built.slice(0, 12)}, sandbox `),
    );

    writeFileSync(join(repo, 'zlib.c'), 'int z(void) { return 2; }\n');
    git(repo, 'commit', '-qam', 'two');
    const now = git(repo, 'rev-parse', 'HEAD');
    const stderr = await portedAgain(url);
    expect(stderr).toContain(
      `the recipe-cache entry of zlib is not used: it was built from commit ${built.slice(0, 12)}, and ${url} is now at ${now.slice(0, 12)}; porting again`,
    );
  });

  it('a local folder changed since the entry is ported again; unchanged, the cache answers', async () => {
    const dir = tree('zlib', 'int z(void) { return 1; }\n');
    await verifiedEntry(dir, { tree: await treeOf(dir) });
    const hit = await runCli(['port', dir, ...PORT, '--json'], { cwd: work, env: env() });
    expect(hit.code, hit.stderr).toBe(0);
    expect(JSON.parse(hit.stdout)).toMatchObject({ cacheHit: true });

    writeFileSync(join(dir, 'zlib.c'), 'int z(void) { return 2; }\n');
    const stderr = await portedAgain(dir);
    expect(stderr).toMatch(
      /not used: it was built from the source tree [0-9a-f]{12}, and the source is now [0-9a-f]{12}; porting again/,
    );
  });

  it('an entry that records no source tree (an older rvport) is not trusted', async () => {
    const dir = tree('zlib', 'int z(void) { return 1; }\n');
    await verifiedEntry(dir, {});
    const stderr = await portedAgain(dir);
    expect(stderr).toContain(
      'not used: it records no source tree (an entry of an older rvport); porting again',
    );
  });
});
