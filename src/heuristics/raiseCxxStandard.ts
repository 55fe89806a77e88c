import { mapCommands, withCompilerFlag } from './planEdits.ts';
import type { RecoveryHeuristic } from './RecoveryHeuristic.ts';

/**
 * The compiler's and the headers' words for code that needs a newer C++ than the build asks for
 * (an upstream release written for C++11 against system headers that now require C++17):
 *   note: ‘std::string_view’ is only available from C++17 onwards
 *   #error "C++17 or later is required" / requires at least C++17 / requires C++17
 */
const NEEDS_STANDARD = [
  /is only available from C\+\+(\d\d) onwards/g,
  /C\+\+ ?(\d\d) or (?:later|newer|higher|above)\b/g,
  /\brequires? (?:at least |a compiler with )?(?:ISO )?C\+\+ ?(\d\d)\b/g,
];

/** The newest C++ standard the output says is needed (as 11, 14, 17, 20, 23), or null. */
export function neededCxxStandard(output: string): number | null {
  let needed: number | null = null;
  for (const pattern of NEEDS_STANDARD) {
    for (const m of output.matchAll(pattern)) {
      const year = Number(m[1]);
      if ([11, 14, 17, 20, 23].includes(year) && (needed === null || year > needed)) needed = year;
    }
  }
  return needed;
}

/** The CMake configure command with the standard set on its command line, once. */
function withCmakeStandard(command: string, year: number): string {
  if (!/^cmake\b/.test(command) || /-DCMAKE_CXX_STANDARD=/.test(command)) return command;
  return `${command} -DCMAKE_CXX_STANDARD=${year}`;
}

/**
 * The build asks for an older C++ than its code or the system's headers need: C++ is compiled
 * with `-std=gnu++NN` in CXXFLAGS, and a CMake configure gets CMAKE_CXX_STANDARD too (a project
 * that sets the standard itself still wins there: the escalation then shows the same error).
 * Raised to what the output names, never lowered; once per standard.
 */
export const raiseCxxStandard: RecoveryHeuristic = {
  name: 'raise-cxx-standard',
  description: 'compile C++ with the newer standard the code or the system headers require',
  match(ctx) {
    const year = neededCxxStandard(ctx.failure.output);
    if (year === null || year <= 11) return null;
    return { key: `c++${year}`, reason: `the code or the system headers need C++${year}` };
  },
  apply(ctx, match) {
    const year = Number(match.key.slice('c++'.length));
    const flagged = withCompilerFlag(ctx.plan, ['CXXFLAGS'], `-std=gnu++${year}`);
    const plan = mapCommands(flagged, (c, phase) => (phase === 'configure' ? withCmakeStandard(c, year) : c));
    const cmake = JSON.stringify(plan) !== JSON.stringify(flagged);
    return Promise.resolve({
      applied: true,
      description: `compile C++ as C++${year} (-std=gnu++${year} in CXXFLAGS${cmake ? `, CMAKE_CXX_STANDARD=${year}` : ''})`,
      commands: [],
      plan,
    });
  },
};
