import { withCompilerFlag } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/** GCC's mark of a warning that -Werror (or -Werror=NAME) turned into an error. */
const AS_ERROR = /\[-Werror=([\w+=-]+)\]/g;

/** The warnings the output shows as errors, in order of first appearance. */
function warningsAsErrors(output: string): string[] {
  return [...new Set([...output.matchAll(AS_ERROR)].map((m) => m[1] ?? ''))].filter(Boolean);
}

/**
 * `error: … [-Werror=stringop-truncation]`: a project builds with -Werror, and a warning the
 * current GCC has (GCC 14 warns of more than the compiler upstream used) stops the build. Each
 * such warning stays a warning (-Wno-error=NAME in CFLAGS and CXXFLAGS, which overrides -Werror
 * wherever that stands on the command line), as Debian's packages do; the other warnings
 * upstream treats as errors still are.
 */
export const keepWarningsWarnings: RecoveryHeuristic = {
  name: 'warnings-not-errors',
  description: 'keep as warnings the warnings -Werror turns into errors (-Wno-error=NAME)',
  match(ctx) {
    const set = `${ctx.plan.env?.CFLAGS ?? ''} ${ctx.plan.env?.CXXFLAGS ?? ''}`.split(/\s+/);
    const names = warningsAsErrors(ctx.failure.output).filter((n) => !set.includes(`-Wno-error=${n}`));
    return names.length > 0
      ? {
          key: names.join(','),
          reason: `-Werror makes the warning${names.length > 1 ? 's' : ''} ${names.join(', ')} errors`,
        }
      : null;
  },
  async apply(ctx, match) {
    const flags = match.key.split(',').map((n) => `-Wno-error=${n}`);
    const plan = flags.reduce((p, flag) => withCompilerFlag(p, ['CFLAGS', 'CXXFLAGS'], flag), ctx.plan);
    return {
      applied: true,
      description: `build with CFLAGS and CXXFLAGS including ${flags.join(' ')}`,
      commands: [],
      plan,
    };
  },
};
