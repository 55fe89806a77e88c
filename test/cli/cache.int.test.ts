import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecipeCache } from '../../src/recipes/RecipeCache.ts';
import type { RecipeEntry } from '../../src/recipes/RecipeEntry.ts';
import { runCli } from '../helpers/rvportCli.ts';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rvport-cache-cli-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const entry: RecipeEntry = {
  formatVersion: 1,
  package: 'sl',
  imageId: 'trixie-riscv64-accelerated-1',
  source: { spec: 'debian:sl' },
  buildSystem: 'make',
  plan: { dir: '.', packages: ['libncurses-dev'], phases: [{ name: 'build', commands: ['make'] }] },
  dependencies: ['libncurses-dev'],
  patches: [],
  artifacts: [{ path: 'sl', machine: 'riscv64', bits: 64, abi: 'lp64d', type: 'executable' }],
  verification: { verdict: 'verified', reason: 'sl is riscv64' },
  durations: { total: 5000 },
  recipe: '# sl for riscv64\nmake\n',
  createdAt: '2026-11-30T00:00:00.000Z',
  rvportVersion: '0.1.0',
};

describe('rvport cache (real processes)', () => {
  it('lists, shows, exports, removes and imports recipes', async () => {
    const env = { RVPORT_HOME: home };
    await new RecipeCache(join(home, 'recipes')).put(entry);

    const list = await runCli(['cache', 'list', '--json'], { cwd: home, env });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ package: 'sl', verdict: 'verified' }),
    ]);

    const show = await runCli(['cache', 'show', 'sl'], { cwd: home, env });
    expect(show.stdout).toBe(entry.recipe);

    const bundle = join(home, 'bundle.json');
    expect((await runCli(['cache', 'export', bundle], { cwd: home, env })).code).toBe(0);
    expect(existsSync(bundle)).toBe(true);

    expect((await runCli(['cache', 'rm', 'sl'], { cwd: home, env })).code).toBe(0);
    const empty = await runCli(['cache', 'list'], { cwd: home, env });
    expect(empty.stdout).toMatch(/no recipes/);

    const imported = await runCli(['cache', 'import', bundle], { cwd: home, env });
    expect(imported).toMatchObject({ code: 0 });
    expect(imported.stderr).toMatch(/imported 1 recipe/);
    expect((await new RecipeCache(join(home, 'recipes')).get('sl', entry.imageId))?.recipe).toBe(
      entry.recipe,
    );
  }, 120_000); // six CLI starts: slow on a loaded machine

  it('gives clear errors with exit 1', async () => {
    const env = { RVPORT_HOME: home };
    const show = await runCli(['cache', 'show', 'nothing'], { cwd: home, env });
    expect(show.code).toBe(1);
    expect(show.stderr).toMatch(/no cached recipe for 'nothing'/);
    const bad = join(home, 'bad.json');
    writeFileSync(bad, '{"entries": [{"package": "x"}]}');
    const imported = await runCli(['cache', 'import', bad], { cwd: home, env });
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(/entry 1 is invalid/);
    const missing = await runCli(['cache', 'import', join(home, 'none.json')], { cwd: home, env });
    expect(missing.stderr).toMatch(/no such file/);
  }, 120_000);
});
