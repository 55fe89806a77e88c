import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';
import type { RecipeEntry } from '../../src/recipes/RecipeEntry.ts';
import { runCli } from '../helpers/rvportCli.ts';

// A recipe bundle is someone else's file: its patches are re-applied on a cache hit and written
// under the output folder by name. Imported through the real CLI, a bundle whose patch name walks
// out of patches/ or whose diff smuggles a symbolic link is refused whole, with a clear message.

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rvport-guard-bundle-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const SMUGGLED_LINK =
  'diff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n@@ -1 +1,6 @@\n-a\n+b\n' +
  'diff --git a/cc b/cc\nnew file mode 120000\n--- /dev/null\n+++ b/cc\n@@ -0,0 +1 @@\n+/native/bin/gcc\n';

const entry = (patches: RecipeEntry['patches']) => ({
  formatVersion: 1,
  package: 'sl',
  imageId: 'trixie-riscv64-accelerated-1',
  source: { spec: 'debian:sl' },
  buildSystem: 'make',
  plan: { dir: '.', packages: [], phases: [{ name: 'build', commands: ['make'] }] },
  dependencies: [],
  patches,
  artifacts: [{ path: 'sl', machine: 'riscv64', bits: 64, abi: 'lp64d', type: 'executable' }],
  verification: { verdict: 'verified', reason: 'sl is riscv64' },
  durations: { total: 5000 },
  recipe: '# sl for riscv64\nmake\n',
  createdAt: '2026-11-30T00:00:00.000Z',
  rvportVersion: '0.1.0',
});

describe('hostile recipe bundles', () => {
  it.each([
    [
      'a patch name that leaves patches/',
      { name: '../../../canary', diff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' },
      /a patch name is NNNN-words\.patch/,
    ],
    [
      'a symbolic link after a lying hunk header',
      { name: '0001-fix.patch', diff: SMUGGLED_LINK },
      /patch 0001-fix\.patch is refused: the hunk header/,
    ],
    [
      'a patch into .git',
      {
        name: '0001-fix.patch',
        diff: '--- a/.git/hooks/post-checkout\n+++ b/.git/hooks/post-checkout\n@@ -0,0 +1 @@\n+touch canary\n',
      },
      /git's own files/,
    ],
  ])('refuses %s at import, exit 1, no stack trace, nothing cached', async (_what, patch, why) => {
    const env = { RVPORT_HOME: home };
    const bundle = join(home, 'bundle.json');
    writeFileSync(bundle, JSON.stringify({ rvportRecipes: 1, entries: [entry([patch])] }));
    const imported = await runCli(['cache', 'import', bundle], { cwd: home, env });
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(why);
    expect(imported.stderr).not.toMatch(/\n\s+at /);
    expect((await new RecipeCache(join(home, 'recipes')).list()).entries).toEqual([]);
    expect(existsSync(join(home, 'canary'))).toBe(false);
  });

  it('an entry planted in the cache folder with a hostile patch is reported as a problem, never used', async () => {
    const dir = join(home, 'recipes', 'sl');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'planted.json'),
      JSON.stringify(entry([{ name: '0001-fix.patch', diff: SMUGGLED_LINK }])),
    );
    const list = await runCli(['cache', 'list'], { cwd: home, env: { RVPORT_HOME: home } });
    expect(list.stdout + list.stderr).toMatch(
      /planted\.json is invalid: patches\.0: patch 0001-fix\.patch is refused/,
    );
    expect((await new RecipeCache(join(home, 'recipes')).list()).entries).toEqual([]);
    expect(readdirSync(home).sort()).toEqual(['recipes']);
  });
});
