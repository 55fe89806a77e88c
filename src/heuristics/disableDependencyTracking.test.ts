import { afterEach, describe, expect, it } from 'vitest';
import { disableDependencyTracking } from './disableDependencyTracking.ts';
import { recoveryHeuristics } from './index.ts';
import { runHeuristics } from './runHeuristics.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const CONFIGURE = '#! /bin/sh\n  --disable-dependency-tracking  speeds up one-time build\n';
const build = { phase: 'build', command: 'make -j"$(nproc)"', exitCode: 2 };

describe('disable-dependency-tracking', () => {
  it("configures without dependency tracking when the tree lacks automake's depcomp (weex)", async () => {
    const { ctx, src } = heuristicContext(fixture('depcomp-missing'), { failure: build });
    src('configure', CONFIGURE);
    expect((await runHeuristics(recoveryHeuristics, ctx, {}))?.heuristic).toBe('disable-dependency-tracking');
    const outcome = await disableDependencyTracking.apply(ctx, {
      key: '--disable-dependency-tracking',
      reason: '',
    });
    expect(outcome.plan?.phases.find((p) => p.name === 'configure')?.commands).toEqual([
      './configure --prefix=/usr --disable-dependency-tracking',
    ]);
  });

  it('leaves a configure without that switch alone', async () => {
    const { ctx, src } = heuristicContext(fixture('depcomp-missing'), { failure: build });
    src('configure', '#! /bin/sh\n');
    expect(await disableDependencyTracking.match(ctx)).toBeNull();
  });
});
