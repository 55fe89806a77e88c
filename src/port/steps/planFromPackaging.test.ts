import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { portState } from '../testing/portStateFixture.ts';
import { planFromPackaging } from './planFromPackaging.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A source tree and Debian's packaging of it kept beside, as acquireDebian leaves them. */
function source(packaging: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'rvport-plan-packaging-'));
  dirs.push(root);
  const tree = join(root, 'tree');
  const kept = join(root, 'debian');
  mkdirSync(tree);
  mkdirSync(kept);
  writeFileSync(join(tree, 'tools.pro'), 'TEMPLATE = lib\n');
  for (const [rel, text] of Object.entries(packaging)) writeFileSync(join(kept, rel), text);
  const state = portState({
    source: { spec: 'debian:demo', name: 'demo', dir: tree },
    debian: {
      buildDepends: [['qt5-qmake']],
      installed: [],
      leftOut: [],
      patchesApplied: [],
      patchesSkipped: [],
      packagingDir: kept,
    },
  });
  return { state, tree };
}

const control =
  'Source: demo\nBuild-Depends: debhelper (>= 9), qt5-qmake\n\nPackage: libdemo2\nArchitecture: any\n';
const rules = '#!/usr/bin/make -f\nbuild-arch: build\nbuild:\n\tqmake tools.pro && $(MAKE)\n';

describe('planFromPackaging', () => {
  it("plans Debian's own build, with the packaging as the next patch, for a tree without a default plan", () => {
    const { state } = source({ control, rules });
    const planned = planFromPackaging(state);
    expect(planned?.plan.buildSystem).toBe('debian-rules');
    expect(planned?.plan.phases.map((p) => p.name)).toEqual(['build', 'test']);
    expect(planned?.plan.phases[0]?.commands[0]).toContain('make -f debian/rules build-arch');
    expect(planned?.plan.packages).toEqual(expect.arrayContaining(['debhelper', 'dpkg-dev']));
    expect(planned?.patches.map((p) => p.name)).toEqual(['0001-packaging-from-debian.patch']);
    expect(planned?.patches[0]?.diff).toContain('+++ b/debian/rules');
  });

  it('plans nothing without packaging, without debian/rules, or for a tree with a debian/ of its own', () => {
    expect(planFromPackaging(portState())).toBeNull();
    expect(planFromPackaging(source({ control }).state)).toBeNull();
    const own = source({ control, rules });
    mkdirSync(join(own.tree, 'debian'));
    expect(planFromPackaging(own.state)).toBeNull();
  });
});
