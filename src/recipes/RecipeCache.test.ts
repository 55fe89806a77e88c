import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecipeCache, RecipeCacheError } from './RecipeCache.ts';
import type { RecipeEntry } from './RecipeEntry.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rvport-recipes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function entry(overrides: Partial<RecipeEntry> = {}): RecipeEntry {
  return {
    formatVersion: 1,
    package: 'cjson',
    imageId: 'trixie-riscv64-accelerated-abc123',
    source: { spec: 'debian:cjson', commit: 'c0ffee' },
    buildSystem: 'cmake',
    plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: ['cmake --build build'] }] },
    dependencies: [],
    patches: [],
    artifacts: [
      { path: 'build/libcjson.so.1.7.18', machine: 'riscv64', bits: 64, abi: 'lp64d', type: 'shared' },
    ],
    verification: { verdict: 'verified', reason: '1 riscv64 artifact' },
    durations: { total: 12_000 },
    recipe: '# cjson for riscv64\n',
    createdAt: '2026-11-30T00:00:00.000Z',
    rvportVersion: '0.1.0',
    ...overrides,
  };
}

describe('RecipeCache', () => {
  it('stores an entry as a plain JSON file and reads it back', async () => {
    const cache = new RecipeCache(dir);
    const file = await cache.put(entry());
    expect(file).toBe(join(dir, 'cjson', 'trixie-riscv64-accelerated-abc123.json'));
    expect(await cache.get('cjson', 'trixie-riscv64-accelerated-abc123')).toEqual(entry());
    expect(readdirSync(join(dir, 'cjson'))).toEqual(['trixie-riscv64-accelerated-abc123.json']);
  });

  it('finds an entry only for the same package, image and source', async () => {
    const cache = new RecipeCache(dir);
    await cache.put(entry());
    const image = 'trixie-riscv64-accelerated-abc123';
    expect(await cache.lookup('cjson', image, { spec: 'debian:cjson' })).toBeDefined();
    expect(await cache.lookup('cjson', image, { spec: 'debian:cjson', commit: 'c0ffee' })).toBeDefined();
    expect(await cache.lookup('cjson', image, { spec: 'debian:cjson', commit: 'other' })).toBeUndefined();
    expect(await cache.lookup('cjson', 'another-image', { spec: 'debian:cjson' })).toBeUndefined();
    expect(await cache.lookup('cjson', image, { spec: 'https://example.invalid/cjson.git' })).toBeUndefined();
  });

  it('lists, removes, and reports unreadable entries', async () => {
    const cache = new RecipeCache(dir);
    await cache.put(entry());
    await cache.put(entry({ package: 'zlib' }));
    writeFileSync(join(dir, 'zlib', 'broken.json'), '{');
    const { entries, problems } = await cache.list();
    expect(entries.map((e) => e.package)).toEqual(['cjson', 'zlib']);
    expect(problems).toEqual([expect.stringMatching(/broken\.json is not JSON/)]);
    expect(await cache.remove('cjson')).toBe(1);
    expect(await cache.remove('cjson')).toBe(0);
  });

  it('exports a bundle and imports it elsewhere; refuses invalid bundles whole', async () => {
    const source = new RecipeCache(dir);
    await source.put(entry());
    const bundle = await source.exportBundle();
    const target = new RecipeCache(join(dir, 'other'));
    expect((await target.importBundle(bundle, 'bundle.json')).map((e) => e.package)).toEqual(['cjson']);
    expect(await target.get('cjson', 'trixie-riscv64-accelerated-abc123')).toEqual(entry());

    await expect(target.importBundle('nope', 'x.json')).rejects.toThrow(RecipeCacheError);
    const bad = JSON.stringify({
      entries: [entry({ package: 'ok2' }), { ...entry(), package: '../escape' }],
    });
    await expect(target.importBundle(bad, 'bad.json')).rejects.toThrow(/entry 2 is invalid/);
    expect(await target.get('ok2', 'trixie-riscv64-accelerated-abc123')).toBeUndefined();
  });

  it('refuses bundles whose patches would be written outside patches/ or fail the diff guard', async () => {
    const target = new RecipeCache(join(dir, 'other'));
    const symlink =
      'diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1 +1,6 @@\n-a\n+b\n' +
      'diff --git a/cc b/cc\nnew file mode 120000\n--- /dev/null\n+++ b/cc\n@@ -0,0 +1 @@\n+/native/bin/gcc\n';
    const withPatch = (name: string, diff: string) =>
      JSON.stringify({ entries: [entry({ patches: [{ name, diff }] })] });
    await expect(
      target.importBundle(
        withPatch('../../../.profile', '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n'),
        'b.json',
      ),
    ).rejects.toThrow(/NNNN-words\.patch/);
    await expect(target.importBundle(withPatch('0001-fix.patch', symlink), 'b.json')).rejects.toThrow(
      /patch 0001-fix\.patch is refused: the hunk header/,
    );
    expect(await target.get('cjson', 'trixie-riscv64-accelerated-abc123')).toBeUndefined();
  });

  it('refuses to store an invalid entry', async () => {
    await expect(new RecipeCache(dir).put({ ...entry(), imageId: '../../etc' })).rejects.toThrow();
  });
});
