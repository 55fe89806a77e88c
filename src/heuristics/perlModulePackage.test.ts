import { afterEach, describe, expect, it } from 'vitest';
import { perlModuleCandidates, perlModulePackage } from './perlModulePackage.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const offering =
  (...names: string[]) =>
  async () =>
    new Set(names);

describe('perl-module-package', () => {
  it("installs libxml-parser-perl when gmmproc cannot load XML::Parser (atkmm's maintainer-mode build)", async () => {
    const t = heuristicContext(fixture('perl-module-missing'), {
      failure: { phase: 'build', command: 'meson compile -C build' },
    });
    t.ctx.installable = offering('libxml-parser-perl', 'libxml-perl');
    const match = await perlModulePackage.match(t.ctx);
    expect(match).toEqual({ key: 'XML/Parser', reason: 'Perl could not load XML::Parser' });
    const outcome = await perlModulePackage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(true);
    expect(t.installed).toEqual([['libxml-parser-perl']]);
    expect(outcome.plan?.packages).toEqual(['libxml-parser-perl']);
  });

  it("names a distribution's module by its first parts, and says so when no package has it", async () => {
    expect(perlModuleCandidates('XML/Parser/Expat')).toEqual([
      'libxml-parser-expat-perl',
      'libxml-parser-perl',
      'libxml-perl',
    ]);
    expect(perlModuleCandidates('Test_More')).toEqual(['libtest-more-perl']);
    const t = heuristicContext(fixture('perl-module-missing'), {
      failure: { phase: 'build', command: 'make' },
    });
    t.ctx.installable = offering('libfoo-perl');
    const outcome = await perlModulePackage.apply(t.ctx, { key: 'XML/Parser', reason: '' });
    expect(outcome.applied).toBe(false);
    expect(outcome.description).toContain('no Debian package provides the Perl module XML::Parser');
  });

  it('stays out of other failures', async () => {
    const t = heuristicContext('make: *** [all] Error 2\n', { failure: { phase: 'build', command: 'make' } });
    expect(await perlModulePackage.match(t.ctx)).toBeNull();
  });
});
