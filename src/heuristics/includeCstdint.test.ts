import { afterEach, describe, expect, it } from 'vitest';
import { includeCstdint } from './includeCstdint.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

describe('include-cstdint', () => {
  it('reads a C++ file without <cstdint> and includes it in every C++ unit', async () => {
    const t = heuristicContext(fixture('cxx-missing-cstdint'), {
      failure: { phase: 'build', command: 'make' },
    });
    const match = await includeCstdint.match(t.ctx);
    expect(match?.reason).toMatch(
      /^C\+\+ without <cstdint>: MSPUBMetaData\.h:38:60: error: ‘uint32_t’ has not been declared/,
    );
    const outcome = await includeCstdint.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.env).toMatchObject({ CXXFLAGS: '-g -O2 -include cstdint' });
  });

  it('appends to flags of the plan, and leaves C files and other errors alone', async () => {
    const t = heuristicContext(fixture('cxx-missing-cstdint'), {
      failure: { phase: 'build', command: 'make' },
    });
    const outcome = await includeCstdint.apply(
      { ...t.ctx, plan: { ...t.ctx.plan, env: { CXXFLAGS: '-O1' } } },
      { key: 'cstdint', reason: '' },
    );
    expect(outcome.plan?.env?.CXXFLAGS).toBe('-O1 -include cstdint');
    const c = heuristicContext("gcc -c a.c\na.c:3:1: error: unknown type name 'uint32_t'\n", {
      failure: { phase: 'build', command: 'make' },
    });
    expect(await includeCstdint.match(c.ctx)).toBeNull();
    for (const name of ['missing-header', 'gcc14-implicit-declaration', 'multiple-definition']) {
      const other = heuristicContext(fixture(name), { failure: { phase: 'build', command: 'make' } });
      expect(await includeCstdint.match(other.ctx), name).toBeNull();
    }
  });
});
