import { withCompilerFlag } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * `multiple definition of 'debug'; rr.o:…/debug.h:27: first defined here`: a global variable
 * defined (without `extern`) in a header that several files include. Until GCC 10 such
 * tentative definitions were merged as common symbols; GCC 10 made -fno-common the default and
 * the link fails. -fcommon brings the old behaviour back, as GCC's porting notes advise. A
 * function or an initialised variable defined twice is a real conflict that -fcommon does not
 * hide, so the heuristic fires once and a second failure goes on to the next repair.
 */
const MULTIPLE_DEFINITION = /multiple definition of [`'‘]([^'’`]+)['’]/;
/** Where the first definition is: a header is the tentative-definition case. */
const IN_HEADER = /:\s*[^\s:]+\.(h|hh|hpp|hxx|inc):\d+: first defined here/;

export const commonSymbols: RecoveryHeuristic = {
  name: 'common-symbols',
  description:
    'link with -fcommon: a variable defined in a header is defined in every object (GCC 10 and later)',
  match(ctx) {
    const line = ctx.failure.output.split('\n').find((l) => MULTIPLE_DEFINITION.test(l));
    if (!line) return null;
    const symbol = MULTIPLE_DEFINITION.exec(line)?.[1] ?? '?';
    const where = IN_HEADER.test(line) ? ' (defined in a header)' : '';
    return { key: 'fcommon', reason: `the symbol ${symbol} is defined in several objects${where}` };
  },
  async apply(ctx) {
    const plan = withCompilerFlag(ctx.plan, ['CFLAGS', 'CXXFLAGS'], '-fcommon');
    return {
      applied: true,
      description: 'build with CFLAGS and CXXFLAGS including -fcommon',
      commands: [],
      plan,
    };
  },
};
