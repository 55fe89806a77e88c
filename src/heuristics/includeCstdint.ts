import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';
import { withCxxFlagEverywhere } from './withFlagEverywhere.ts';

/**
 * `'uint32_t' has not been declared` in C++: GCC 13's standard library stopped including
 * <cstdint> from other headers, so code that used the fixed-width types without including it
 * no longer compiles. Including it in every C++ translation unit (`-include cstdint`) is what
 * GCC's porting notes and distributions did for old code.
 */
const FIXED_WIDTH =
  /error: ['‘](?:std::)?u?int(8|16|32|64|ptr|max)_t['’] (has not been declared|does not name a type|was not declared in this scope|is not a member of ['‘]std['’])/;
/** The file is C++ (the same words in C mean a missing <stdint.h>, which this does not fix). */
const CXX_FILE = /\.(cc|cpp|cxx|c\+\+|hh|hpp|hxx|h|C|H)(:\d+)+: error:/;

const FLAG = '-include cstdint';

export const includeCstdint: RecoveryHeuristic = {
  name: 'include-cstdint',
  description: 'compile C++ with -include cstdint (GCC 13 no longer includes it from other headers)',
  match(ctx) {
    const line = ctx.failure.output.split('\n').find((l) => FIXED_WIDTH.test(l) && CXX_FILE.test(l));
    if (!line) return null;
    if (!/\bCXX\b|\bc\+\+|g\+\+|\.(cc|cpp|cxx)\b/.test(ctx.failure.output)) return null;
    return { key: 'cstdint', reason: `C++ without <cstdint>: ${line.trim()}` };
  },
  async apply(ctx) {
    return withCxxFlagEverywhere(ctx, FLAG);
  },
};
