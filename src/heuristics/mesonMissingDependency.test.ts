import { afterEach, describe, expect, it } from 'vitest';
import { mesonMissing, mesonMissingDependency } from './mesonMissingDependency.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import {
  fixture,
  heuristicContext,
  optionalDependency,
  removeWorkspaces,
} from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

describe('meson-missing-dependency', () => {
  it("reads meson's missing dependency and missing program", () => {
    expect(mesonMissing(fixture('meson-dependency-not-found'))).toEqual({
      what: 'dependency uuid',
      wanted: [
        { kind: 'pkgconfig', name: 'uuid' },
        { kind: 'cmake-package', name: 'uuid' },
        { kind: 'library', name: 'uuid' },
      ],
    });
    expect(mesonMissing(fixture('meson-program-not-found'))).toEqual({
      what: 'program gperf',
      wanted: [{ kind: 'command', name: 'gperf' }],
    });
  });

  it('installs the pkg-config module of the dependency', async () => {
    const t = heuristicContext(fixture('meson-dependency-not-found'), {
      failure: { command: 'meson setup build' },
      providers: { 'pkgconfig:uuid': 'uuid-dev' },
    });
    const match = await mesonMissingDependency.match(t.ctx);
    expect(match?.reason).toBe('meson: dependency uuid not found');
    const outcome = await mesonMissingDependency.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['uuid-dev'] } });
    expect(t.installed).toEqual([['uuid-dev']]);
  });

  it('prefers the package the analysis listed for the dependency', async () => {
    const t = heuristicContext(fixture('meson-dependency-not-found'), {
      dependencies: [optionalDependency('pkg-config', 'uuid', 'uuid-dev')],
      providers: { 'pkgconfig:uuid': 'some-other-dev' },
    });
    const outcome = await mesonMissingDependency.apply(
      t.ctx,
      (await mesonMissingDependency.match(t.ctx)) as HeuristicMatch,
    );
    expect(outcome.plan?.packages).toEqual(['uuid-dev']);
  });

  it('installs a missing program (gperf is a missing package, not a configuration error)', async () => {
    const t = heuristicContext(fixture('meson-program-not-found'), {
      providers: { 'command:gperf': 'gperf' },
    });
    const outcome = await mesonMissingDependency.apply(
      t.ctx,
      (await mesonMissingDependency.match(t.ctx)) as HeuristicMatch,
    );
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['gperf'] } });
  });

  it('leaves other failures alone', () => {
    expect(mesonMissingDependency.match(heuristicContext(fixture('cmake-could-not-find')).ctx)).toBeNull();
  });
});
