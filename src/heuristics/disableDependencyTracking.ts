import { configureWithSwitches, offeredConfigureSwitches } from './configureSwitches.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** A compile run through automake's depcomp, which the tree does not have. */
const DEPCOMP_MISSING = /(?:^|[\s/])depcomp: (?:No such file or directory|not found)/m;
const SWITCH = '--disable-dependency-tracking';

/**
 * automake's `depcomp` helper is missing from the tree (a repacked release, an old tarball): the
 * compile rules call it for dependency tracking, which a one-off build does not need. Configure
 * with `--disable-dependency-tracking`, as Debian's dh_auto_configure always does.
 */
export const disableDependencyTracking: RecoveryHeuristic = {
  name: 'disable-dependency-tracking',
  description: "configure without dependency tracking when automake's depcomp is missing",
  match(ctx) {
    if (!DEPCOMP_MISSING.test(ctx.failure.output)) return null;
    return offeredConfigureSwitches(ctx, [SWITCH]).length
      ? { key: SWITCH, reason: "automake's depcomp helper is not in the tree" }
      : null;
  },
  async apply(ctx, match) {
    return configureWithSwitches(
      ctx.plan,
      match.key,
      `configure with ${match.key} (the compile rules call a depcomp the tree does not have)`,
    );
  },
};
