import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { withCxxFlagEverywhere } from './withFlagEverywhere.ts';

/**
 * `error: narrowing conversion of ‘2147483810’ from ‘unsigned int’ to ‘int’ [-Wnarrowing]`: C++11
 * made a narrowing constant in a braced initializer or a case label an error, and GCC 6 made
 * C++14 its default, so C++ written before (ht's unsigned command codes in a switch on int) no
 * longer compiles. `-Wno-narrowing` is how distributions rebuilt such code for GCC 6: the
 * conversion is the one C++98 made.
 */
const NARROWING =
  /\.(cc|cpp|cxx|c\+\+|hh|hpp|hxx|h|C|H)(:\d+)+: error: narrowing conversion of .*\[-Wnarrowing\]/;

const FLAG = '-Wno-narrowing';

export const cxxNarrowing: RecoveryHeuristic = {
  name: 'cxx-narrowing',
  description: 'compile C++ with -Wno-narrowing (C++11 made a narrowing constant an error)',
  match(ctx) {
    const line = ctx.failure.output.split('\n').find((l) => NARROWING.test(l));
    return line ? { key: 'narrowing', reason: `C++98 narrowing: ${line.trim()}` } : null;
  },
  async apply(ctx) {
    if ((ctx.plan.env?.CXXFLAGS ?? '').split(/\s+/).includes(FLAG))
      return { applied: false, description: `CXXFLAGS has ${FLAG} already`, commands: [] };
    return withCxxFlagEverywhere(ctx, FLAG);
  },
};
