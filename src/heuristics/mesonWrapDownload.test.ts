import { afterEach, describe, expect, it } from 'vitest';
import { meson } from '../analysis/buildSystems/meson.ts';
import { mesonWrapDownload, wrapProvides } from './mesonWrapDownload.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const candidate = {
  type: 'meson' as const,
  confidence: 0.8,
  dir: '.',
  evidence: ['meson.build'],
  details: {},
};
const mesonPlan = {
  buildSystem: 'meson' as const,
  dir: '.',
  phases: meson.defaultPlan(candidate),
  packages: [],
  expectedArtifacts: [],
  origin: 'default' as const,
};
const INIH_WRAP =
  '[wrap-git]\nurl = https://git.example.invalid/inih.git\nrevision = r58\n\n[provide]\ninih = inih_dep\n';

describe('meson-wrap-download', () => {
  it('never downloads a wrap in the default plan', () => {
    expect(meson.defaultPlan(candidate)[0]?.commands[0]).toContain('--wrap-mode=nodownload');
  });

  it("installs the system's copy of what a dependency's wrap provides", async () => {
    const output = fixture('meson-wrap-nodownload');
    const t = heuristicContext(output, { plan: mesonPlan, providers: { 'pkgconfig:inih': 'libinih-dev' } });
    t.src('meson.build', "project('demo', 'c')\ninih = dependency('inih', fallback: ['inih', 'inih_dep'])\n");
    t.src('subprojects/inih.wrap', INIH_WRAP);
    const match = await mesonWrapDownload.match(t.ctx);
    expect(match?.reason).toBe('meson.build:2 downloads the subproject inih from its wrap');
    const outcome = await mesonWrapDownload.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(true);
    expect(t.installed).toEqual([['libinih-dev']]);
    expect(outcome.description).toContain(
      'subprojects/inih.wrap, wrap-git from https://git.example.invalid/inih.git',
    );
  });

  it('names the wrap, its origin and the system package for a direct subproject() call', async () => {
    const t = heuristicContext(fixture('meson-wrap-nodownload'), {
      plan: mesonPlan,
      providers: { 'pkgconfig:inih': 'libinih-dev' },
    });
    t.src('meson.build', "project('demo', 'c')\ninih = subproject('inih').get_variable('inih_dep')\n");
    t.src('subprojects/inih.wrap', INIH_WRAP);
    const match = await mesonWrapDownload.match(t.ctx);
    const outcome = await mesonWrapDownload.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(false);
    expect(outcome.description).toBe(
      "meson.build:2 calls subproject('inih'), which meson would download (subprojects/inih.wrap, wrap-git from https://git.example.invalid/inih.git); Debian's libinih-dev provides inih: call dependency('inih') there instead",
    );
    expect(t.installed).toEqual([]);
  });

  it("reads a wrap's [provide] section", () => {
    expect(
      wrapProvides(
        '[wrap-file]\ndirectory = x\n[provide]\ndependency_names = glib-2.0, gobject-2.0\nprogram_names = glib-mkenums\n',
      ),
    ).toEqual(['glib-2.0', 'gobject-2.0']);
    expect(wrapProvides('[wrap-file]\n[provide]\nzlib = zlib_dep\n[other]\nno = x\n')).toEqual(['zlib']);
    expect(wrapProvides('[wrap-file]\ndirectory = x\n')).toEqual([]);
  });

  it('leaves other meson errors alone and never reads out of the tree', async () => {
    expect(
      await mesonWrapDownload.match(heuristicContext(fixture('meson-dependency-not-found')).ctx),
    ).toBeNull();
    const t = heuristicContext(
      '../meson.build:2:0: ERROR: Automatic wrap-based subproject downloading is disabled\n',
    );
    expect(await mesonWrapDownload.match(t.ctx)).toBeNull();
  });
});
