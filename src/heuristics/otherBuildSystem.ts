import { defaultPlan } from '../analysis/index.ts';
import { planPhases } from '../plan/index.ts';
import { BUILD_PHASES, DEBIAN_BUILD_SYSTEM, type RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** Below this the analysis was guessing; such a candidate is not worth an attempt. */
const MIN_CONFIDENCE = 0.5;

/**
 * A tree with two build systems (meson and autotools, CMake and a legacy Makefile): when the
 * chosen one fails to configure or build and no other repair applied, the next candidate the
 * analysis found is tried with its standard plan (the packages installed so far and the plan's
 * environment stay), once each, before the port escalates. Last in the list: it is the repair of
 * last resort, not a way around a missing package.
 */
export const otherBuildSystem: RecoveryHeuristic = {
  name: 'other-build-system',
  description: "build with the tree's other build system when the chosen one fails",
  match(ctx) {
    if (!BUILD_PHASES.has(ctx.failure.phase) || ctx.failure.timedOut) return null;
    // Debian's own build comes after the tree's build systems failed: going back to one repeats it
    if (ctx.plan.buildSystem === DEBIAN_BUILD_SYSTEM) return null;
    const candidates = ctx.analysis?.buildSystems ?? [];
    const next = candidates.find(
      (c) =>
        c.confidence >= MIN_CONFIDENCE &&
        c.type !== ctx.plan.buildSystem &&
        c.type !== 'unknown' &&
        (c.dir === ctx.plan.dir || c.dir === '.'),
    );
    if (!next) return null;
    return {
      key: `${next.type}:${next.dir}`,
      reason: `${ctx.plan.buildSystem} failed in the ${ctx.failure.phase} phase; the tree also has ${next.type} (${next.evidence.join(', ')})`,
    };
  },
  async apply(ctx, match) {
    const [type, dir] = match.key.split(/:(.*)/s);
    const candidate = ctx.analysis?.buildSystems.find((c) => c.type === type && c.dir === dir);
    const base = candidate ? defaultPlan(candidate) : null;
    if (!base || base.phases.length === 0)
      return { applied: false, description: `no standard plan for ${type}`, commands: [] };
    return {
      applied: true,
      description: `build with ${base.buildSystem} in ${base.dir} instead of ${ctx.plan.buildSystem}`,
      commands: [],
      // the prepare phase stays: its edits (refreshed config.guess, source fixes) hold for any build
      plan: {
        ...ctx.plan,
        buildSystem: base.buildSystem,
        dir: base.dir,
        phases: [...ctx.plan.phases.filter((p) => p.name === 'prepare'), ...planPhases(base)],
      },
    };
  },
};
