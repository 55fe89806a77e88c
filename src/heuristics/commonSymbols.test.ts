import { afterEach, describe, expect, it } from 'vitest';
import { commonSymbols } from './commonSymbols.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

describe('common-symbols', () => {
  it('reads a variable defined in a header in every object, and links with -fcommon', async () => {
    const t = heuristicContext(fixture('multiple-definition'), {
      failure: { phase: 'build', command: 'make' },
    });
    const match = await commonSymbols.match(t.ctx);
    expect(match).toEqual({
      key: 'fcommon',
      reason: 'the symbol debug is defined in several objects (defined in a header)',
    });
    const outcome = await commonSymbols.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({
      applied: true,
      plan: { env: { CFLAGS: '-g -O2 -fcommon', CXXFLAGS: '-g -O2 -fcommon' } },
    });
  });

  it("appends to the plan's own flags", async () => {
    const t = heuristicContext(fixture('multiple-definition'), {
      failure: { phase: 'build', command: 'make' },
    });
    const ctx = { ...t.ctx, plan: { ...t.ctx.plan, env: { CFLAGS: '-O1' } } };
    const outcome = await commonSymbols.apply(ctx, { key: 'fcommon', reason: '' });
    expect(outcome.plan?.env).toMatchObject({ CFLAGS: '-O1 -fcommon' });
  });

  it('does not fire on other link failures', () => {
    for (const name of ['missing-library', 'atomic-16', 'relocation-truncated', 'examples-link-failure']) {
      const t = heuristicContext(fixture(name), { failure: { phase: 'build', command: 'make' } });
      expect(commonSymbols.match(t.ctx), name).toBeNull();
    }
  });
});
