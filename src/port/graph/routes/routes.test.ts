import { describe, expect, it } from 'vitest';
import { END } from '../../../engine/END.ts';
import type { BuildPlan, FixAttempt } from '../../state/PortState.ts';
import { anError, portState, someAnalysis } from '../../testing/portStateFixture.ts';
import { routeAnalystToNext } from './routeAnalystToNext.ts';
import { routeBuildResult } from './routeBuildResult.ts';
import { routeCachedRecipeToNext } from './routeCachedRecipeToNext.ts';
import { routeFixResult } from './routeFixResult.ts';
import { routeHeuristicPlanToNext } from './routeHeuristicPlanToNext.ts';
import { routeInitToNext } from './routeInitToNext.ts';
import { routeReplayToNext } from './routeReplayToNext.ts';
import { routeSupervisorToNext } from './routeSupervisorToNext.ts';
import { routeVerifyResult } from './routeVerifyResult.ts';

const plan: BuildPlan = {
  buildSystem: 'cmake',
  dir: '.',
  phases: [],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};
const fix: FixAttempt = {
  at: '',
  attempt: 1,
  source: 'heuristic',
  name: 'x',
  description: 'x',
  outcome: 'applied',
};

describe('routeInitToNext', () => {
  it('escalates a failed or escalated init', () => {
    expect(routeInitToNext(portState({ buildStatus: 'FAILED' }))).toBe('escalate');
    expect(routeInitToNext(portState({ buildStatus: 'ESCALATED', cachedRecipe: {} }))).toBe('escalate');
  });
  it('uses a cached recipe when there is one', () => {
    expect(routeInitToNext(portState({ cachedRecipe: { phases: [] } }))).toBe('cached_recipe');
  });
  it('goes to the analyst otherwise', () => {
    expect(routeInitToNext(portState())).toBe('analyst');
  });
});

describe('routeCachedRecipeToNext', () => {
  it('goes to the supervisor when the cache gave a plan, else to the analyst', () => {
    expect(routeCachedRecipeToNext(portState({ plan }))).toBe('supervisor');
    expect(routeCachedRecipeToNext(portState())).toBe('analyst');
  });
});

describe('routeAnalystToNext', () => {
  it('escalates without an analysis, else plans', () => {
    expect(routeAnalystToNext(portState())).toBe('escalate');
    expect(routeAnalystToNext(portState({ packageAnalysis: someAnalysis }))).toBe('heuristic_plan');
  });
  it('escalates an analyst the cost cap stopped, although it wrote its fallback analysis', () => {
    expect(routeAnalystToNext(portState({ packageAnalysis: someAnalysis, buildStatus: 'ESCALATED' }))).toBe(
      'escalate',
    );
  });
});

describe('routeHeuristicPlanToNext', () => {
  it('goes to the supervisor with a plan, else to the scout', () => {
    expect(routeHeuristicPlanToNext(portState({ plan }))).toBe('supervisor');
    expect(routeHeuristicPlanToNext(portState())).toBe('scout');
  });
});

describe('routeSupervisorToNext, in the seed order', () => {
  const ready = { packageAnalysis: someAnalysis, plan };

  it('1. SUCCESS goes to finish, even at the attempt and cost limits', () => {
    const state = portState({
      ...ready,
      buildStatus: 'SUCCESS',
      attemptCount: 5,
      errors: [anError('COMPILATION')],
    });
    state.llm.costUsd = 9;
    expect(routeSupervisorToNext(state)).toBe('finish');
  });
  it('2. ESCALATED goes to escalate', () => {
    expect(routeSupervisorToNext(portState({ ...ready, buildStatus: 'ESCALATED' }))).toBe('escalate');
  });
  it('3. an escalation check escalates: permission, disk space, blockers, cost cap', () => {
    for (const category of [
      'PERMISSION',
      'DISK_SPACE',
      'REQUIRES_HARDWARE',
      'LICENSE_INCOMPATIBLE',
      'ARCHITECTURE_IMPOSSIBLE',
    ] as const) {
      const state = portState({
        ...ready,
        buildStatus: 'FAILED',
        attemptCount: 1,
        errors: [anError(category)],
      });
      expect(routeSupervisorToNext(state), category).toBe('escalate');
    }
    const costly = portState({
      ...ready,
      buildStatus: 'FAILED',
      attemptCount: 1,
      errors: [anError('COMPILATION')],
    });
    costly.llm.costUsd = 1.01;
    expect(routeSupervisorToNext(costly)).toBe('escalate');
  });
  it('4. the attempt limit escalates', () => {
    const state = portState({
      ...ready,
      buildStatus: 'FAILED',
      attemptCount: 5,
      errors: [anError('COMPILATION')],
    });
    expect(routeSupervisorToNext(state)).toBe('escalate');
    expect(routeSupervisorToNext({ ...state, attemptCount: 4 })).toBe('build_fix_subgraph');
  });
  it('5. three errors in a row with one signature escalate', () => {
    const same = [
      anError('COMPILATION', 'foo.c:1: error: x'),
      anError('COMPILATION', 'foo.c:7: error: x'),
      anError('COMPILATION', 'foo.c:9: error: x'),
    ];
    expect(
      routeSupervisorToNext(portState({ ...ready, buildStatus: 'FAILED', attemptCount: 3, errors: same })),
    ).toBe('escalate');
    const different = [...same.slice(0, 2), anError('COMPILATION', 'bar.c: error: y')];
    expect(
      routeSupervisorToNext(
        portState({ ...ready, buildStatus: 'FAILED', attemptCount: 3, errors: different }),
      ),
    ).toBe('build_fix_subgraph');
  });
  it('6. no analysis goes to the analyst', () => {
    expect(routeSupervisorToNext(portState({ plan, buildStatus: 'FAILED' }))).toBe('analyst');
  });
  it('7. FAILED with a dependency, tool or plan error goes to the scout (plan errors once each)', () => {
    for (const category of ['DEPENDENCY', 'MISSING_TOOLS'] as const) {
      const state = portState({
        ...ready,
        buildStatus: 'FAILED',
        attemptCount: 1,
        errors: [anError(category)],
      });
      expect(routeSupervisorToNext(state), category).toBe('scout');
    }
    const planError = anError('CONFIGURATION', 'sh: 1: ./configure: not found');
    const first = portState({ ...ready, buildStatus: 'FAILED', attemptCount: 1, errors: [planError] });
    expect(routeSupervisorToNext(first)).toBe('scout');
    expect(routeSupervisorToNext({ ...first, replansUsed: ['configure-missing'] })).toBe(
      'build_fix_subgraph',
    );
  });
  it('8. other FAILED runs go back into the build/fix loop', () => {
    const state = portState({
      ...ready,
      buildStatus: 'FAILED',
      attemptCount: 1,
      errors: [anError('COMPILATION')],
    });
    expect(routeSupervisorToNext(state)).toBe('build_fix_subgraph');
  });
  it('9. a plan that is PENDING or BUILDING is built', () => {
    expect(routeSupervisorToNext(portState({ ...ready, buildStatus: 'PENDING' }))).toBe('build_fix_subgraph');
    expect(routeSupervisorToNext(portState({ ...ready, buildStatus: 'BUILDING' }))).toBe(
      'build_fix_subgraph',
    );
  });
  it('10. everything else goes to the scout', () => {
    expect(routeSupervisorToNext(portState({ packageAnalysis: someAnalysis, buildStatus: 'PENDING' }))).toBe(
      'scout',
    );
    expect(routeSupervisorToNext(portState({ ...ready, buildStatus: 'FIXING' }))).toBe('scout');
  });
});

describe('routeReplayToNext', () => {
  it('runs performance mode only when asked', () => {
    expect(routeReplayToNext(portState({ optimizeRequested: true }))).toBe('optimize');
    expect(routeReplayToNext(portState())).toBe(END);
  });
});

describe('routeBuildResult', () => {
  it('verifies a successful build', () => {
    expect(routeBuildResult(portState({ buildStatus: 'SUCCESS', attemptCount: 5 }))).toBe('verify');
  });
  it('leaves the loop on ESCALATED or when no attempts remain', () => {
    expect(routeBuildResult(portState({ buildStatus: 'ESCALATED' }))).toBe(END);
    expect(routeBuildResult(portState({ buildStatus: 'FAILED', attemptCount: 5 }))).toBe(END);
  });
  it('sends other failures to the fixer', () => {
    expect(routeBuildResult(portState({ buildStatus: 'FAILED', attemptCount: 1 }))).toBe('fix');
  });
});

describe('routeVerifyResult', () => {
  it('leaves the loop on SUCCESS or ESCALATED', () => {
    expect(routeVerifyResult(portState({ buildStatus: 'SUCCESS' }))).toBe(END);
    expect(routeVerifyResult(portState({ buildStatus: 'ESCALATED' }))).toBe(END);
  });
  it('goes back to the build when a heuristic gave a build that proved nothing another plan', () => {
    expect(routeVerifyResult(portState({ buildStatus: 'BUILDING', attemptCount: 1 }))).toBe('build');
  });
  it('leaves the loop when no attempts remain', () => {
    expect(
      routeVerifyResult(
        portState({ buildStatus: 'FAILED', attemptCount: 5, errors: [anError('ARCHITECTURE')] }),
      ),
    ).toBe(END);
  });
  it('leaves the loop when a fix exists and the error is not one the fixer retries', () => {
    const state = portState({
      buildStatus: 'FAILED',
      attemptCount: 2,
      fixAttempts: [fix],
      errors: [anError('CONFIGURATION')],
    });
    expect(routeVerifyResult(state)).toBe(END);
  });
  it('sends a wrong-architecture verdict to the fixer', () => {
    expect(
      routeVerifyResult(
        portState({ buildStatus: 'FAILED', attemptCount: 1, errors: [anError('ARCHITECTURE')] }),
      ),
    ).toBe('fix');
    for (const category of ['LINKING', 'COMPILATION', 'ARCHITECTURE'] as const) {
      const state = portState({
        buildStatus: 'FAILED',
        attemptCount: 2,
        fixAttempts: [fix],
        errors: [anError(category)],
      });
      expect(routeVerifyResult(state), category).toBe('fix');
    }
  });
});

describe('routeFixResult', () => {
  it('leaves the loop when the fixer escalated or failed, or no attempts remain', () => {
    expect(routeFixResult(portState({ buildStatus: 'ESCALATED' }))).toBe(END);
    expect(routeFixResult(portState({ buildStatus: 'FAILED' }))).toBe(END);
    expect(routeFixResult(portState({ buildStatus: 'FIXING', attemptCount: 5 }))).toBe(END);
  });
  it('builds again after a fix', () => {
    expect(routeFixResult(portState({ buildStatus: 'FIXING', attemptCount: 2 }))).toBe('build');
  });
});
