import { configureWithSwitches, offeredConfigureSwitches } from './configureSwitches.ts';
import { DOC_DIR, failingDirectory } from './failingDirectory.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** configure switches that leave documentation out, in order of preference. */
const DOC_SWITCHES = [
  '--disable-doc',
  '--disable-docs',
  '--disable-documentation',
  '--disable-spec',
  '--disable-man',
  '--disable-manpages',
  '--without-docs',
  '--without-doc',
];

/**
 * Documentation that cannot be built here (an input missing from the release tarball, a tool
 * that is not packaged): when configure offers a switch for it, build without the documentation.
 */
export const disableDocumentation: RecoveryHeuristic = {
  name: 'disable-documentation',
  description: 'build without the documentation when it cannot be built here and configure offers a switch',
  match(ctx) {
    const dir = failingDirectory(ctx.failure.output);
    if (!dir || !DOC_DIR.test(dir)) return null;
    const offered = offeredConfigureSwitches(ctx, DOC_SWITCHES);
    return offered.length
      ? {
          key: offered.join(' '),
          reason: `the documentation in ${dir} does not build and configure offers ${offered.join(', ')}`,
        }
      : null;
  },
  async apply(ctx, match) {
    return configureWithSwitches(
      ctx.plan,
      match.key,
      `configure with ${match.key} (the documentation cannot be built here)`,
    );
  },
};
