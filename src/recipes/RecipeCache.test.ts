import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

describe('RecipeCache, hostile or broken input', () => {
  it('answers no entry for a corrupt file and says why, instead of failing the port', async () => {
    const cache = new RecipeCache(dir);
    await cache.put(entry());
    writeFileSync(join(dir, 'cjson', 'trixie-riscv64-accelerated-abc123.json'), '{"formatVersion": 1');
    const warnings: string[] = [];
    const found = await cache.lookup(
      'cjson',
      'trixie-riscv64-accelerated-abc123',
      { spec: 'debian:cjson' },
      (w) => warnings.push(w),
    );
    expect(found).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/is not JSON.*rvport cache rm cjson removes it/)]);
    expect(await cache.remove('cjson')).toBe(1);
    expect(readdirSync(join(dir, 'cjson'))).toEqual([]);
  });

  it('imports only entries of the expected package when told so', async () => {
    const bundle = JSON.stringify({ rvportRecipes: 1, entries: [entry(), entry({ package: 'zlib' })] });
    await expect(new RecipeCache(dir).importBundle(bundle, 'w', { onlyPackage: 'cjson' })).rejects.toThrow(
      /entry 2 is for package 'zlib', not 'cjson'/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([
    [
      'an artifact path with ..',
      { artifacts: [{ path: '../../etc/shadow', machine: 'riscv64' }] },
      /artifacts\.0\.path/,
    ],
    [
      'an absolute artifact path',
      { artifacts: [{ path: '/etc/shadow', machine: 'riscv64' }] },
      /relative path/,
    ],
    ['a build folder outside the tree', { plan: { dir: 'a/../..', packages: [], phases: [] } }, /plan\.dir/],
    ['a patch name with a folder', { patches: [{ name: '../../x.patch', diff: '' }] }, /NNNN-words\.patch/],
    [
      'a patch that makes a symbolic link',
      {
        patches: [
          {
            name: '0001-link.patch',
            diff: 'diff --git a/lib b/lib\nnew file mode 120000\n--- /dev/null\n+++ b/lib\n@@ -0,0 +1 @@\n+/etc/shadow\n',
          },
        ],
      },
      /symbolic link/,
    ],
    ['an oversized recipe', { recipe: 'x'.repeat(9 * 1024 * 1024) }, /larger than 8 MiB/],
  ])('refuses a bundle with %s', async (_what, over, why) => {
    const bundle = JSON.stringify({ rvportRecipes: 1, entries: [entry(over as Partial<RecipeEntry>)] });
    await expect(new RecipeCache(dir).importBundle(bundle, 'b.json')).rejects.toThrow(why);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('does not write through a package folder that is a symbolic link', async () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(join(dir, 'cache'));
    symlinkSync(elsewhere, join(dir, 'cache', 'cjson'));
    await expect(new RecipeCache(join(dir, 'cache')).put(entry())).rejects.toThrow(/not a plain folder/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
