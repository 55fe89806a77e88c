import { describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import { PGO_DIR, planTunes, tuneEnv } from './buildTune.ts';
import type { TargetFacts } from './OptimizationReport.ts';

const plan: BuildPlan = {
  buildSystem: 'autotools',
  dir: '.',
  phases: [{ name: 'build', commands: ['make'] }],
  packages: [],
  env: { CFLAGS: '-g -O2 -fcommon', LIBS: '-latomic' },
  expectedArtifacts: [],
  origin: 'default',
};
const facts: TargetFacts = {
  emulated: true,
  emulationEvidence: [],
  isa: 'rv64imafdc_zba_zbb_zbs',
  extensions: ['i', 'm', 'a', 'f', 'd', 'c', 'zba', 'zbb', 'zbs'],
  compiler: 'gcc 14.2.0',
  march: 'rv64gc_zba_zbb_zbs',
  marchExtensions: ['zba', 'zbb', 'zbs'],
  clang: null,
  notes: [],
};

describe('planTunes', () => {
  it('makes each tune a variant of the plan with its own flags, keeping what the port needed', () => {
    const tunes = planTunes(plan, facts);
    expect(tunes.map((t) => t.name)).toEqual(['O3', 'march', 'O3-march', 'LTO', 'PGO', 'clang']);
    const env = Object.fromEntries(tunes.map((t) => [t.name, t.plan ? tuneEnv(plan, t.plan) : null]));
    expect(env.O3).toEqual({ CFLAGS: '-g -O2 -fcommon -O3', CXXFLAGS: '-g -O2 -O3' });
    expect(env.march?.CFLAGS).toBe('-g -O2 -fcommon -march=rv64gc_zba_zbb_zbs');
    expect(env['O3-march']?.CFLAGS).toBe('-g -O2 -fcommon -O3 -march=rv64gc_zba_zbb_zbs');
    expect(env.LTO).toEqual({
      CFLAGS: '-g -O2 -fcommon -flto=auto -ffat-lto-objects',
      CXXFLAGS: '-g -O2 -flto=auto -ffat-lto-objects',
      LDFLAGS: '-flto=auto',
    });
    const pgo = tunes.find((t) => t.name === 'PGO');
    expect(pgo?.profilePlan?.env?.CFLAGS).toContain(`-fprofile-generate=${PGO_DIR}`);
    expect(pgo?.plan?.env?.CFLAGS).toContain(`-fprofile-use=${PGO_DIR}`);
    expect(pgo?.plan?.env?.LDFLAGS).toBe(`-fprofile-use=${PGO_DIR}`);
    for (const t of tunes) if (t.plan) expect(t.plan.env?.LIBS).toBe('-latomic');
    expect(tunes.find((t) => t.name === 'march')?.requiredExtensions).toEqual(['zba', 'zbb', 'zbs']);
    expect(tunes.find((t) => t.name === 'clang')).toMatchObject({
      plan: null,
      notBuilt: expect.stringMatching(/no clang/),
    });
  });

  it('keeps the -march tunes, not built, with the reason when the probe found nothing to add', () => {
    const tunes = planTunes(plan, { ...facts, march: null, marchExtensions: [], clang: 'clang 19' });
    expect(tunes.filter((t) => t.notBuilt).map((t) => t.name)).toEqual(['march', 'O3-march']);
    expect(tunes.find((t) => t.name === 'clang')?.plan?.env).toMatchObject({ CC: 'clang', CXX: 'clang++' });
  });
});
