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
      what: 'dependency uuid not found',
      wanted: [
        { kind: 'pkgconfig', name: 'uuid' },
        { kind: 'cmake-package', name: 'uuid' },
        { kind: 'library', name: 'uuid' },
      ],
    });
    expect(mesonMissing(fixture('meson-program-not-found'))).toEqual({
      what: 'program gperf not found',
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

  it('installs pkg-config first when meson did not find it', async () => {
    const t = heuristicContext(fixture('meson-no-pkg-config'), {
      providers: { 'command:pkg-config': 'pkgconf', 'pkgconfig:glib-2.0': 'libglib2.0-dev' },
    });
    const match = mesonMissingDependency.match(t.ctx) as HeuristicMatch;
    expect(match.key).toBe('command:pkg-config,pkgconfig:glib-2.0,cmake-package:glib-2.0,library:glib-2.0');
    const first = await mesonMissingDependency.apply(t.ctx, match);
    expect(first.plan?.packages).toEqual(['pkgconf']);
    // the next run of meson (pkg-config there) names the dependency alone: another key, the module's package
    const again = heuristicContext(fixture('meson-no-pkg-config').split('\n').slice(2).join('\n'), {
      providers: { 'pkgconfig:glib-2.0': 'libglib2.0-dev' },
      plan: { ...t.ctx.plan, packages: ['pkgconf'] },
    });
    const next = mesonMissingDependency.match(again.ctx) as HeuristicMatch;
    expect(next.key).not.toBe(match.key);
    expect((await mesonMissingDependency.apply(again.ctx, next)).plan?.packages).toEqual([
      'libglib2.0-dev',
      'pkgconf',
    ]);
  });

  it("reads the project's own error() for the dependency it names", async () => {
    const t = heuristicContext(fixture('meson-problem-encountered'), {
      providers: { 'library:iniparser': 'libiniparser-dev' },
    });
    const match = mesonMissingDependency.match(t.ctx) as HeuristicMatch;
    expect(match).toEqual({
      key: 'word:iniparser',
      reason: 'meson: iniparser library is required',
    });
    const outcome = await mesonMissingDependency.apply(t.ctx, match);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['libiniparser-dev'] } });
  });

  it('leaves other failures alone', () => {
    expect(mesonMissingDependency.match(heuristicContext(fixture('cmake-could-not-find')).ctx)).toBeNull();
  });
});
