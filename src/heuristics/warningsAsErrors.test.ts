import { afterEach, describe, expect, it } from 'vitest';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';
import { keepWarningsWarnings } from './warningsAsErrors.ts';

afterEach(removeWorkspaces);

describe('warnings-not-errors', () => {
  it('keeps the warnings -Werror made errors as warnings, once (real scanbd output, GCC 14)', async () => {
    const t = heuristicContext(fixture('werror-stringop-truncation'), {
      failure: { phase: 'build', command: 'make' },
    });
    const match = keepWarningsWarnings.match(t.ctx) as HeuristicMatch;
    expect(match).toEqual({
      key: 'stringop-truncation',
      reason: '-Werror makes the warning stringop-truncation errors',
    });
    const outcome = await keepWarningsWarnings.apply(t.ctx, match);
    expect(outcome).toMatchObject({
      applied: true,
      plan: {
        env: {
          CFLAGS: '-g -O2 -Wno-error -Wno-error=stringop-truncation',
          CXXFLAGS: '-g -O2 -Wno-error -Wno-error=stringop-truncation',
        },
      },
    });
    // with the flag in place the same failure is another repair's
    const again = { ...t.ctx, plan: outcome.plan ?? t.ctx.plan };
    expect(keepWarningsWarnings.match(again)).toBeNull();
    // a warning seen after it (a -Werror after CFLAGS on the line) gets its own name, once
    const later = {
      ...again,
      failure: { ...again.failure, output: 'x.c:1:1: error: y [-Werror=clobbered]\n' },
    };
    const more = await keepWarningsWarnings.apply(later, keepWarningsWarnings.match(later) as HeuristicMatch);
    expect(more.plan?.env?.CFLAGS).toBe(
      '-g -O2 -Wno-error -Wno-error=stringop-truncation -Wno-error=clobbered',
    );
  });

  it('names every warning of the output, and fires on nothing without -Werror', () => {
    const output =
      "a.c:1:1: error: unused variable 'x' [-Werror=unused-variable]\nb.cc:2:2: error: comparison [-Werror=sign-compare]\n";
    const t = heuristicContext(output, { failure: { phase: 'build', command: 'make' } });
    expect((keepWarningsWarnings.match(t.ctx) as HeuristicMatch).reason).toBe(
      '-Werror makes the warnings unused-variable, sign-compare errors',
    );
    for (const name of ['multiple-definition', 'missing-library']) {
      const other = heuristicContext(fixture(name), { failure: { phase: 'build', command: 'make' } });
      expect(keepWarningsWarnings.match(other.ctx), name).toBeNull();
    }
  });
});
