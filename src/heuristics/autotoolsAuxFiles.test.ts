import { afterEach, describe, expect, it } from 'vitest';
import { autotoolsAuxFiles } from './autotoolsAuxFiles.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { autotoolsPlan, fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

describe('autotools-aux-files', () => {
  it('runs autoreconf -fi before configure when configure names auxiliary files the tree lacks', async () => {
    const t = heuristicContext(fixture('autotools-aux-files'));
    t.src('configure.ac', 'AC_INIT([t],[1])\n');
    const match = await autotoolsAuxFiles.match(t.ctx);
    expect(match?.reason).toBe('the tree lacks autotools auxiliary files (compile missing install-sh)');
    const outcome = await autotoolsAuxFiles.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(true);
    expect(outcome.plan?.phases.map((p) => p.name)).toEqual(['bootstrap', 'configure', 'build']);
    expect(outcome.plan?.phases[0]?.commands).toEqual(['autoreconf -fi']);
  });

  it('keeps a bootstrap script that ran automake without --add-missing, then installs them', async () => {
    const plan = {
      ...autotoolsPlan,
      phases: [{ name: 'bootstrap' as const, commands: ['sh ./autogen.sh'] }, ...autotoolsPlan.phases],
    };
    const t = heuristicContext(fixture('automake-required-file'), {
      plan,
      failure: { phase: 'bootstrap', command: 'sh ./autogen.sh' },
    });
    t.src('configure.ac', 'AC_INIT([t],[1])\n');
    const match = await autotoolsAuxFiles.match(t.ctx);
    expect(match?.reason).toContain('(compile)');
    const outcome = await autotoolsAuxFiles.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases[0]).toEqual({
      name: 'bootstrap',
      commands: ['sh ./autogen.sh', 'autoreconf -fi'],
    });
    // once autoreconf -fi has run and the files are still missing, it is not the answer again
    const again = heuristicContext(fixture('autotools-aux-files'), { plan: outcome.plan ?? plan });
    again.src('configure.ac', 'AC_INIT([t],[1])\n');
    expect(await autotoolsAuxFiles.match(again.ctx)).toBeNull();
  });

  it('leaves a tree without configure.ac alone (a release whose configure names them)', async () => {
    const t = heuristicContext(fixture('autotools-aux-files'));
    expect(await autotoolsAuxFiles.match(t.ctx)).toBeNull();
    t.src('configure.ac', '');
    expect(
      await autotoolsAuxFiles.match(
        heuristicContext('configure: error: C compiler cannot create executables\n').ctx,
      ),
    ).toBeNull();
  });
});
