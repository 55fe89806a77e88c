import { describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import type { Sandbox } from '../sandbox/Sandbox.ts';
import type { HeuristicContext, RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { runHeuristics } from './runHeuristics.ts';

const plan: BuildPlan = {
  buildSystem: 'make',
  dir: '.',
  phases: [],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

function context(output: string): HeuristicContext {
  return {
    failure: { phase: 'build', command: 'make', output, exitCode: 2, timedOut: false },
    plan,
    source: { spec: '/tmp/demo' },
    patches: [],
    analysis: null,
    sandbox: {} as Sandbox,
    srcDir: '/build/src',
    findPackage: async () => null,
    log: () => {},
  };
}

function heuristic(name: string, pattern: RegExp, apply?: () => Promise<never>): RecoveryHeuristic {
  return {
    name,
    description: name,
    match: (ctx) => {
      const m = pattern.exec(ctx.failure.output);
      return m ? { key: m[1] ?? m[0], reason: `saw ${m[0]}` } : null;
    },
    apply:
      apply ?? (async (_ctx, match) => ({ applied: true, description: `fixed ${match.key}`, commands: [] })),
  };
}

describe('runHeuristics', () => {
  const list = [heuristic('first', /missing (\w+)/), heuristic('second', /missing/)];

  it('applies the first heuristic that matches', async () => {
    const firing = await runHeuristics(list, context('missing zlib'), {});
    expect(firing).toMatchObject({
      heuristic: 'first',
      key: 'first:zlib',
      outcome: { applied: true, description: 'fixed zlib' },
    });
  });

  it('fires each key once per port, then offers the failure to the next heuristic', async () => {
    const firing = await runHeuristics(list, context('missing zlib'), { 'first:zlib': 1 });
    expect(firing?.heuristic).toBe('second');
    expect(
      await runHeuristics(list, context('missing zlib'), { 'first:zlib': 1, 'second:missing': 1 }),
    ).toBeNull();
    expect((await runHeuristics(list, context('missing png'), { 'first:zlib': 1 }))?.key).toBe('first:png');
  });

  it('returns null when nothing matches, and a failed outcome when the action throws', async () => {
    expect(await runHeuristics(list, context('all good'), {})).toBeNull();
    const broken = heuristic('broken', /boom/, async () => {
      throw new Error('apt is locked');
    });
    expect(await runHeuristics([broken], context('boom'), {})).toMatchObject({
      outcome: { applied: false, description: 'broken failed: apt is locked' },
    });
  });
});
