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
 * current GCC has (GCC 14 warns of more than the compiler upstream used) stops the build. Warnings
 * stay warnings, as Debian's packages often build: -Wno-error in CFLAGS and CXXFLAGS, which undoes
 * a -Werror before it on the command line, so one repair serves the warnings of every file make
 * had not reached yet (scanbd: stringop-truncation, then clobbered); and -Wno-error=NAME for each
 * warning seen, which holds wherever the project puts its -Werror (CMake's compile options come
 * after CMAKE_C_FLAGS). A warning seen again after that repair adds its own NAME.
 */
export const keepWarningsWarnings: RecoveryHeuristic = {
  name: 'warnings-not-errors',
  description: 'keep as warnings the warnings -Werror turns into errors (-Wno-error, -Wno-error=NAME)',
  match(ctx) {
    const set = `${ctx.plan.env?.CFLAGS ?? ''} ${ctx.plan.env?.CXXFLAGS ?? ''}`.split(/\s+/);
    const names = warningsAsErrors(ctx.failure.output).filter((n) => !set.includes(`-Wno-error=${n}`));
    if (names.length === 0) return null;
    return {
      key: names.join(','),
      reason: `-Werror makes the warning${names.length > 1 ? 's' : ''} ${names.join(', ')} errors`,
    };
  },
  async apply(ctx, match) {
    const set = (ctx.plan.env?.CFLAGS ?? '').split(/\s+/);
    const flags = [
      ...(set.includes('-Wno-error') ? [] : ['-Wno-error']),
      ...match.key.split(',').map((n) => `-Wno-error=${n}`),
    ];
    const plan = flags.reduce((p, flag) => withCompilerFlag(p, ['CFLAGS', 'CXXFLAGS'], flag), ctx.plan);
    return {
      applied: true,
      description: `build with CFLAGS and CXXFLAGS including ${flags.join(' ')}`,
      commands: [],
      plan,
    };
  },
};
