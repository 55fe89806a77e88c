import { configureWithSwitches, offeredConfigureSwitches } from './configureSwitches.ts';
import { failingDirectory } from './failingDirectory.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** Folders of example and demo programs, which a library's port does not need. */
const EXAMPLES_DIR = /\/(examples?|demos?|samples?)(\/|$)/;
/** configure switches that leave the examples out, in order of preference. */
const EXAMPLE_SWITCHES = ['--disable-examples', '--disable-demos', '--without-examples', '--disable-samples'];

/**
 * Example programs that do not build against today's libraries (libtheora's png2theora calls
 * png_sizeof, gone from libpng 1.6; its player lacks -lm): when configure offers a switch, build
 * without them. The library and its tests still build; the recipe says what was left out.
 */
export const disableExamples: RecoveryHeuristic = {
  name: 'disable-examples',
  description: 'build without the example programs when they fail and configure offers a switch',
  match(ctx) {
    const dir = failingDirectory(ctx.failure.output);
    if (!dir || !EXAMPLES_DIR.test(`${dir}/`)) return null;
    const offered = offeredConfigureSwitches(ctx, EXAMPLE_SWITCHES).slice(0, 1);
    return offered.length
      ? {
          key: offered.join(' '),
          reason: `the examples in ${dir} do not build and configure offers ${offered[0]}`,
        }
      : null;
  },
  async apply(ctx, match) {
    return configureWithSwitches(
      ctx.plan,
      match.key,
      `configure with ${match.key} (the example programs do not build)`,
    );
  },
};
