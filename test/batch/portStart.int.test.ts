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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInitialState } from '../../src/engine/state.ts';
import { portRunId } from '../../src/port/run/portRunId.ts';
import { createPortState } from '../../src/port/state/PortState.ts';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';
import type { RecipeEntry } from '../../src/recipes/RecipeEntry.ts';
import { imageKeys } from '../../src/sandbox/findImages.ts';
import { acquireSource, headTree, parseSource } from '../../src/sources/index.ts';
import { runCli, startCli, waitFor } from '../helpers/rvportCli.ts';

// How `rvport port` starts: checkpoint or recipe cache, --restart, --package on a cache hit.
// Real binary, real files. The RVPORT_HOME has the records of an emulated image (so nothing is
// provisioned) but no image: every case here ends before a sandbox instance would be made.
let home: string;
let work: string;
const image = imageKeys('trixie').rootfs;
const env = () => ({ RVPORT_HOME: home });

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rvport-start-home-'));
  work = mkdtempSync(join(tmpdir(), 'rvport-start-work-'));
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

/** A local source folder `<work>/<parent>/zlib`. */
function source(parent: string): string {
  const dir = join(work, parent, 'zlib');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'Makefile'), 'all:\n\ttrue\n');
  return dir;
}

/** The git tree id of a local source as rvport takes it (what a cache entry is checked against). */
async function treeOf(dir: string): Promise<string> {
  const acquired = await acquireSource(parseSource(dir), {
    workDir: join(work, 'trees', String(Math.random())),
  });
  return headTree(acquired.gitDir);
}

async function cacheEntry(spec: string): Promise<void> {
  const entry: RecipeEntry = {
    formatVersion: 1,
    package: 'zlib',
    imageId: image,
    source: { spec, tree: await treeOf(spec) },
    buildSystem: 'make',
    plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: ['make'] }] },
    dependencies: [],
    patches: [],
    artifacts: [{ path: 'libz.so.1', machine: 'riscv64', bits: 64, abi: 'lp64d', type: 'shared' }],
    verification: { verdict: 'verified', reason: 'libz.so.1 is riscv64' },
    durations: { total: 1000 },
    recipe: '# zlib for riscv64\n',
    createdAt: '2026-12-01T00:00:00.000Z',
    rvportVersion: '0.1.0',
  };
  await new RecipeCache(join(home, 'recipes')).put(entry);
}

/** The checkpoint of a run of `dir` stopped while its `node` was in flight. */
function checkpoint(dir: string, node: string): string {
  const spec = parseSource(dir);
  const id = portRunId(spec);
  const context = createPortState(
    { spec: spec.raw, name: spec.name },
    { maxAttempts: 5, costCapUsd: 1, offline: true, mode: 'emulated', optimize: false, force: false },
  );
  const state = {
    ...createInitialState(id, 'init', { ...context, escalationReason: 'stopped for the test' }, new Date()),
    currentNode: node,
    status: 'running' as const,
  };
  const file = join(home, 'runs', `${id}.json`);
  mkdirSync(join(home, 'runs'), { recursive: true });
  writeFileSync(file, JSON.stringify(state));
  return file;
}

const port = async (dir: string, ...flags: string[]) => {
  const run = await runCli(
    ['port', dir, '--mode', 'emulated', '--offline', '--json', '--out', 'out', ...flags],
    {
      cwd: work,
      env: env(),
    },
  );
  return { ...run, result: run.stdout ? JSON.parse(run.stdout) : null };
};

describe('rvport port: checkpoint before cache', () => {
  it('resumes an interrupted run even when its cache entry is already written', async () => {
    const dir = source('a');
    await cacheEntry(dir);
    checkpoint(dir, 'escalate');
    const { code, result, stderr } = await port(dir);
    expect(stderr).toMatch(/resuming the interrupted port of zlib at escalate/);
    expect(result).toMatchObject({ cacheHit: false, resumed: true, result: 'escalated' });
    expect(code).toBe(1);
  });

  it('does not resume the checkpoint of another source with the same package name', async () => {
    const mine = source('a');
    const other = source('b');
    const otherRun = checkpoint(other, 'escalate');
    const before = readFileSync(otherRun, 'utf8');
    await cacheEntry(mine);
    const { code, result, stderr } = await port(mine);
    expect(stderr).not.toMatch(/resuming/);
    expect(result).toMatchObject({ cacheHit: true, result: 'verified' });
    expect(code).toBe(0);
    expect(readFileSync(otherRun, 'utf8')).toBe(before);
  });
});

describe('rvport port --restart on a corrupt checkpoint', () => {
  it('refuses to resume it with a clear message, and --restart discards it', async () => {
    const dir = source('a');
    await cacheEntry(dir);
    const file = checkpoint(dir, 'escalate');
    writeFileSync(file, '{"formatVersion": 1, "workflowId": "trunc');
    const refused = await port(dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/state file .* is unusable: invalid JSON.*--restart discards it/);
    expect(refused.stderr).not.toMatch(/unexpected error|\n\s+at /);

    const restarted = await port(dir, '--restart');
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.result).toMatchObject({ cacheHit: true });
    expect(existsSync(file)).toBe(false);
  });
});

describe('rvport port --package on a cache hit', () => {
  it('says why there is no zip and exits 2, with the recipe written', async () => {
    const dir = source('a');
    await cacheEntry(dir);
    const { code, result, stderr } = await port(dir, '--package');
    expect(code).toBe(2);
    expect(result).toMatchObject({ result: 'package_failed', cacheHit: true });
    expect(stderr).toMatch(
      /no zlib-riscv64\.zip: the recipe cache keeps the recipe, not the built files; run again with --force/,
    );
    expect(readFileSync(join(work, 'out', 'zlib', 'recipe.md'), 'utf8')).toBe('# zlib for riscv64\n');
    expect(readdirSync(join(work, 'out', 'zlib')).filter((f) => f.endsWith('.zip'))).toEqual([]);
  });
});

describe('rvport port with a corrupt recipe-cache entry', () => {
  it('warns and ports as if there were no entry; rvport cache rm removes it', async () => {
    const dir = source('a');
    mkdirSync(join(home, 'recipes', 'zlib'), { recursive: true });
    writeFileSync(join(home, 'recipes', 'zlib', `${image}.json`), '{ broken');
    const { child, done } = startCli(['port', dir, '--mode', 'emulated', '--offline', '--out', 'out'], {
      cwd: work,
      env: env(),
    });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    // the port goes on past the entry; it is stopped there (this home has no real image)
    await waitFor(() => /» init/.test(stderr), 60_000, 'the port to start');
    child.kill('SIGINT');
    const stopped = await done;
    expect(stopped.stderr).toMatch(
      /warning: recipe .*zlib.* is not JSON.*ignoring it \(rvport cache rm zlib removes it\)/,
    );
    expect(stopped.stderr).not.toMatch(/unexpected error/);
    expect(stopped.code).toBe(130);
    const removed = await runCli(['cache', 'rm', 'zlib'], { cwd: work, env: env() });
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(join(home, 'recipes', 'zlib', `${image}.json`))).toBe(false);
  });
});
