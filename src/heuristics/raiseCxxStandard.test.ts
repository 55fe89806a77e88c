import { afterEach, describe, expect, it } from 'vitest';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { neededCxxStandard, raiseCxxStandard } from './raiseCxxStandard.ts';
import { autotoolsPlan, fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const build = { phase: 'build', command: 'make' };

describe('raise-cxx-standard', () => {
  it('compiles C++ as C++17 when GCC says the library names need it', async () => {
    const t = heuristicContext(fixture('cxx-standard-too-old'), { failure: build });
    const match = await raiseCxxStandard.match(t.ctx);
    expect(match).toEqual({ key: 'c++17', reason: 'the code or the system headers need C++17' });
    const outcome = await raiseCxxStandard.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.env?.CXXFLAGS).toBe('-g -O2 -std=gnu++17');
    expect(outcome.plan?.phases).toEqual(autotoolsPlan.phases);
  });

  it("also sets CMake's standard, and takes the newest a header's #error names", async () => {
    const cmakePlan = {
      ...autotoolsPlan,
      buildSystem: 'cmake' as const,
      phases: [{ name: 'configure' as const, commands: ['cmake -S . -B build'] }],
    };
    const output =
      '/usr/include/unicode/localpointer.h:45:2: error: #error "ICU requires C++17 or later"\nnote: ‘std::span’ is only available from C++20 onwards\n';
    const t = heuristicContext(output, { failure: build, plan: cmakePlan });
    const match = await raiseCxxStandard.match(t.ctx);
    expect(match?.key).toBe('c++20');
    const outcome = await raiseCxxStandard.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases[0]?.commands).toEqual(['cmake -S . -B build -DCMAKE_CXX_STANDARD=20']);
    expect(outcome.description).toContain('CMAKE_CXX_STANDARD=20');
  });

  it('reads the usual wordings and ignores unrelated text', () => {
    expect(neededCxxStandard('#error This library requires at least C++14')).toBe(14);
    expect(neededCxxStandard('error: #error "C++17 or later is required"')).toBe(17);
    expect(neededCxxStandard('configure: error: C++ compiler cannot create executables')).toBeNull();
    expect(neededCxxStandard('uses C++98 features')).toBeNull();
  });
});
