import { afterEach, describe, expect, it } from 'vitest';
import { cxxNarrowing } from './cxxNarrowing.ts';
import { recoveryHeuristics } from './index.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { runHeuristics } from './runHeuristics.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const build = { phase: 'build', command: 'make -j"$(nproc)"', exitCode: 2 };

describe('cxx-narrowing', () => {
  it("compiles ht's unsigned command codes in a switch on int with -Wno-narrowing", async () => {
    const t = heuristicContext(fixture('cxx-narrowing-case-label'), { failure: build });
    const match = await cxxNarrowing.match(t.ctx);
    expect(match?.reason).toMatch(/^C\+\+98 narrowing: cmds\.h:29:65: error: narrowing conversion of/);
    const outcome = await cxxNarrowing.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({
      applied: true,
      description: 'build with CXXFLAGS including -Wno-narrowing',
      plan: { env: { CXXFLAGS: '-g -O2 -Wno-narrowing' } },
    });
    expect(await runHeuristics(recoveryHeuristics, t.ctx, {})).toMatchObject({ heuristic: 'cxx-narrowing' });
    // once the flag is there, the same failure is not this repair's
    const again = { ...t.ctx, plan: outcome.plan ?? t.ctx.plan };
    expect(await cxxNarrowing.apply(again, match as HeuristicMatch)).toMatchObject({ applied: false });
  });

  it('leaves other errors alone', async () => {
    const t = heuristicContext("a.c:3:9: warning: conversion from 'int' to 'char' changes value\n", {
      failure: build,
    });
    expect(await cxxNarrowing.match(t.ctx)).toBeNull();
  });
});
