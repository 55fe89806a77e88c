import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recipeEntrySchema } from '../../recipes/RecipeEntry.ts';
import type { PortState } from '../state/PortState.ts';
import { portState } from '../testing/portStateFixture.ts';
import { toRecipeEntry } from './toRecipeEntry.ts';
import { writeCacheHitOutputs, writePortOutputs } from './writePortOutputs.ts';

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'rvport-outputs-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const built = (over: Partial<PortState> = {}): PortState =>
  portState({
    source: { spec: '/src/demo', name: 'demo', commit: '0123456789abcdef0123456789abcdef01234567' },
    buildStatus: 'SUCCESS',
    plan: {
      buildSystem: 'cmake',
      dir: '.',
      packages: ['zlib1g-dev'],
      env: { CFLAGS: '-O2 $(touch /tmp/never)' },
      phases: [
        { name: 'configure', commands: ['cmake -S . -B build'] },
        { name: 'build', commands: ['cmake --build build'] },
        { name: 'test', commands: ['ctest --test-dir build'], optional: true },
        { name: 'install', commands: ['DESTDIR="$RVPORT_DESTDIR" cmake --install build'], optional: true },
      ],
      expectedArtifacts: [],
      origin: 'default',
    },
    patches: [
      { name: '0001-fix.patch', diff: 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n' },
    ],
    verification: { verdict: 'verified', reason: '1 riscv64 ELF object' },
    recipe: '# demo\n',
    ...over,
  });

describe('build.sh among the outputs', () => {
  it('a port that built writes build.sh, packages.txt and a Dockerfile, and lists them', async () => {
    const files = await writePortOutputs(built(), work, { package: false });
    for (const f of ['build.sh', 'packages.txt', 'Dockerfile']) expect(files.written).toContain(f);
    expect(readFileSync(join(work, 'packages.txt'), 'utf8')).toBe(
      'build-essential\ncmake\npatch\npkg-config\nzlib1g-dev\n',
    );
  });

  it('a cache hit writes the same build.sh from the entry as the port wrote from its state', async () => {
    const state = built();
    const entry = recipeEntrySchema.parse(toRecipeEntry(state, '# demo\n', 'img-1'));
    // runPort makes the folders first
    mkdirSync(join(work, 'port'));
    mkdirSync(join(work, 'hit'));
    await writePortOutputs(state, join(work, 'port'), { package: false });
    const hit = await writeCacheHitOutputs(entry, join(work, 'hit'));
    for (const f of ['build.sh', 'packages.txt', 'Dockerfile']) {
      expect(hit.written).toContain(f);
      expect(readFileSync(join(work, 'hit', f), 'utf8')).toBe(readFileSync(join(work, 'port', f), 'utf8'));
    }
  });

  it('an escalated port gets none, and stale ones and an old replay go', async () => {
    for (const f of ['build.sh', 'packages.txt', 'Dockerfile', 'replay.md'])
      writeFileSync(join(work, f), 'old');
    const files = await writePortOutputs(built({ buildStatus: 'ESCALATED' }), work, { package: false });
    expect(files.written).not.toContain('build.sh');
    for (const f of ['build.sh', 'packages.txt', 'Dockerfile', 'replay.md'])
      expect(existsSync(join(work, f))).toBe(false);
  });

  it('a plan whose package name is not Debian syntax gets no build.sh, and says why', async () => {
    const state = built();
    const bad = built({
      plan: { ...(state.plan as NonNullable<PortState['plan']>), packages: ['zlib;reboot'] },
    });
    const files = await writePortOutputs(bad, work, { package: false });
    expect(files.written).not.toContain('build.sh');
    expect(files.scriptError).toMatch(/not a Debian package name/);
  });
});

describe('the outputs of performance mode', () => {
  const optimization = (winner: string | null): NonNullable<PortState['optimization']> => ({
    status: 'done',
    tunes: [
      {
        name: 'O3',
        description: 'optimisation level 3',
        env: { CFLAGS: '-g -O2 -O3' },
        status: 'gated',
        gates: [{ name: 'build', passed: true, detail: 'built' }],
      },
    ],
    winner,
    verdict: winner ? 'O3 is faster' : 'no speed claim under emulation: timings of qemu',
    costProxy: 'none available',
    notes: [],
    durationMs: 1,
  });

  it("writes the winner's recipe and the report section; a run without a winner removes an old recipe", async () => {
    const out = join(work, 'out');
    mkdirSync(out);
    const first = await writePortOutputs(built({ optimization: optimization('O3') }), out, {
      package: false,
    });
    expect(first.written).toContain('optimized-recipe.md');
    expect(readFileSync(join(out, 'optimized-recipe.md'), 'utf8')).toContain("export CFLAGS='-g -O2 -O3'");
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('## Optimization');
    await writePortOutputs(built({ optimization: optimization(null) }), out, { package: false });
    expect(existsSync(join(out, 'optimized-recipe.md'))).toBe(false);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('Verdict: no speed claim under emulation');
  });
});
