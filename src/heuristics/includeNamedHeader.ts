import { withCompilerFlag } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * `'memcpy' was not declared in this scope` … `note: 'memcpy' is defined in header '<cstring>';
 * this is probably fixable by adding '#include <cstring>'`: C++ code written when the standard
 * library's headers included each other more freely (GCC 4.3 and 13 each stopped some of it), and
 * GCC names the header the code forgot. Every C++ unit is compiled with each header it names
 * (`-include cstring`), what distributions did for old code; a standard header adds declarations
 * and nothing else. Only headers of the C++ standard library are taken: the name comes from the
 * build's output.
 */
const NAMED_HEADER =
  /note: ['‘][\w:]+['’] is defined in header ['‘]<([a-z_]+)>['’]; this is probably fixable by adding ['‘]#include <\1>['’]/g;

/** The C++ standard library's headers (C++23), the C ones by their C++ names. */
const STANDARD_HEADERS = new Set([
  'algorithm',
  'any',
  'array',
  'atomic',
  'bit',
  'bitset',
  'cassert',
  'cctype',
  'cerrno',
  'cfloat',
  'charconv',
  'chrono',
  'cinttypes',
  'climits',
  'clocale',
  'cmath',
  'complex',
  'condition_variable',
  'csetjmp',
  'csignal',
  'cstdarg',
  'cstddef',
  'cstdint',
  'cstdio',
  'cstdlib',
  'cstring',
  'ctime',
  'cwchar',
  'cwctype',
  'deque',
  'exception',
  'filesystem',
  'format',
  'forward_list',
  'fstream',
  'functional',
  'future',
  'initializer_list',
  'iomanip',
  'ios',
  'iosfwd',
  'iostream',
  'istream',
  'iterator',
  'limits',
  'list',
  'locale',
  'map',
  'memory',
  'mutex',
  'new',
  'numeric',
  'optional',
  'ostream',
  'queue',
  'random',
  'ratio',
  'regex',
  'set',
  'shared_mutex',
  'span',
  'sstream',
  'stack',
  'stdexcept',
  'streambuf',
  'string',
  'string_view',
  'system_error',
  'thread',
  'tuple',
  'type_traits',
  'typeindex',
  'typeinfo',
  'unordered_map',
  'unordered_set',
  'utility',
  'valarray',
  'variant',
  'vector',
]);

/** The standard headers GCC names in `output`, in the order it first names them. */
export function headersNamedByGcc(output: string): string[] {
  const named = [...output.matchAll(NAMED_HEADER)].map((m) => m[1] as string);
  return [...new Set(named)].filter((h) => STANDARD_HEADERS.has(h));
}

/** The named headers the plan does not include yet. */
function missingHeaders(output: string, cxxflags: string | undefined): string[] {
  const flags = ` ${cxxflags ?? ''} `;
  return headersNamedByGcc(output).filter((h) => !flags.includes(` -include ${h} `));
}

export const includeNamedHeader: RecoveryHeuristic = {
  name: 'include-named-header',
  description: 'compile C++ with the standard headers GCC says the code forgot to include',
  match(ctx) {
    const headers = missingHeaders(ctx.failure.output, ctx.plan.env?.CXXFLAGS);
    if (headers.length === 0) return null;
    return {
      key: `include-${headers.join('-')}`,
      reason: `C++ that uses the standard library without including ${headers.map((h) => `<${h}>`).join(', ')} (GCC names the header)`,
    };
  },
  async apply(ctx) {
    const headers = missingHeaders(ctx.failure.output, ctx.plan.env?.CXXFLAGS);
    const plan = headers.reduce(
      (edited, header) => withCompilerFlag(edited, ['CXXFLAGS'], `-include ${header}`),
      ctx.plan,
    );
    return {
      applied: true,
      description: `build with CXXFLAGS including ${headers.map((h) => `-include ${h}`).join(' ')}`,
      commands: [],
      plan,
    };
  },
};
