import { afterEach, describe, expect, it } from 'vitest';
import { recoveryHeuristics } from './index.ts';
import { installMissingPackage } from './installMissingPackage.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { runHeuristics } from './runHeuristics.ts';
import { autotoolsPlan, fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

/** ht's Build-Depends, as the plan installs them. */
const htPlan = {
  ...autotoolsPlan,
  packages: ['flex', 'liblzo2-dev', 'libiberty-dev', 'libncurses-dev', 'libx11-dev', 'texinfo'],
};
const installedFiles = {
  'libiberty-dev': [
    '/usr/include/libiberty',
    '/usr/include/libiberty/ansidecl.h',
    '/usr/include/libiberty/demangle.h',
    '/usr/include/libiberty/libiberty.h',
    '/usr/lib/riscv64-linux-gnu/libiberty.a',
  ],
  'libncurses-dev': ['/usr/include/curses.h', '/usr/include/ncursesw/curses.h'],
  // installed, but none of the plan's: not this build's header
  'libcgal-dev': ['/usr/include/CGAL/demangle.h', '/usr/include/CGAL/other.h'],
  'linux-libc-dev': ['/usr/include/linux/types.h'],
};
const build = { phase: 'build', command: 'make -j"$(nproc)"', exitCode: 2 };

describe('install-missing-package for a header a planned package keeps in a folder of its own', () => {
  it('puts libiberty-dev\'s folder on CPATH for ht\'s g++ (#include "demangle.h"), before a retry with one job', async () => {
    // the Contents index names no package: /usr/include/libiberty is not named as demangle.h is
    const t = heuristicContext(fixture('cxx-header-in-package-subfolder'), {
      plan: htPlan,
      failure: build,
      installedFiles,
    });
    const match = await installMissingPackage.match(t.ctx);
    expect(match?.key).toBe('header:demangle.h');
    const outcome = await installMissingPackage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({
      applied: true,
      description:
        'libiberty-dev is installed and keeps the header demangle.h in /usr/include/libiberty: added to CPATH',
      commands: [],
      plan: { packages: htPlan.packages, env: { CPATH: '/usr/include/libiberty' } },
    });
    expect(t.installed).toEqual([]);
    expect(await runHeuristics(recoveryHeuristics, t.ctx, {})).toMatchObject({
      heuristic: 'install-missing-package',
      outcome: { applied: true },
    });
    // once searched, the same failure is not this repair's again
    const again = heuristicContext(fixture('cxx-header-in-package-subfolder'), {
      plan: outcome.plan,
      failure: build,
      installedFiles,
    });
    expect(await installMissingPackage.apply(again.ctx, match as HeuristicMatch)).toMatchObject({
      applied: false,
    });
  });

  it("counts only the plan's packages, one of them, in a folder the compiler does not search", async () => {
    const apply = async (name: string, packages: string[], files = installedFiles) => {
      const t = heuristicContext('', {
        plan: { ...autotoolsPlan, packages },
        failure: build,
        installedFiles: files,
      });
      return installMissingPackage.apply(t.ctx, { key: `header:${name}`, reason: '' });
    };
    // libcgal-dev is installed but the build did not ask for it; linux-libc-dev comes with the image
    expect((await apply('demangle.h', ['flex'])).applied).toBe(false);
    expect((await apply('types.h', ['libiberty-dev'])).applied).toBe(false);
    // a copy where the compiler looks already: the folder is not what is missing
    expect((await apply('curses.h', ['libncurses-dev'])).applied).toBe(false);
    // two planned packages with a folder each: neither is chosen
    const two = { ...installedFiles, 'libfoo-dev': ['/usr/include/foo/demangle.h'] };
    expect((await apply('demangle.h', ['libiberty-dev', 'libfoo-dev'], two)).applied).toBe(false);
  });
});
