import { configureWithSwitches, offeredConfigureSwitches } from './configureSwitches.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** autoconf-archive's AX_ENABLE_BUILDDIR wrapper makefile dispatching to a host folder that lacks the target. */
const BUILDDIR_WRAPPER = /^MAKE \S+ : \d+ \* all-configured$|No rule to make target 'all-configured'/m;

/**
 * Projects using AX_ENABLE_BUILDDIR (libffi) build in a host-named subfolder behind a wrapper
 * makefile, which breaks when the host folder lacks the wrapper's targets. Building in the tree
 * itself (`--disable-builddir`, which the macro offers) is the plain autotools build.
 */
export const disableAutoBuilddir: RecoveryHeuristic = {
  name: 'disable-auto-builddir',
  description: "configure with --disable-builddir when AX_ENABLE_BUILDDIR's wrapper makefile fails",
  match(ctx) {
    if (!BUILDDIR_WRAPPER.test(ctx.failure.output)) return null;
    const offered = offeredConfigureSwitches(ctx, ['--disable-builddir']);
    return offered.length
      ? { key: '--disable-builddir', reason: 'the AX_ENABLE_BUILDDIR wrapper makefile failed' }
      : null;
  },
  async apply(ctx, match) {
    return configureWithSwitches(
      ctx.plan,
      match.key,
      'configure with --disable-builddir (build in the tree)',
    );
  },
};
