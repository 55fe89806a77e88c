import { afterEach, describe, expect, it } from 'vitest';
import { includeCstdint } from './includeCstdint.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, makePlan, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

describe('include-cstdint', () => {
  it('reads a C++ file without <cstdint> and includes it in every C++ unit', async () => {
    const t = heuristicContext(fixture('cxx-missing-cstdint'), {
      failure: { phase: 'build', command: 'make' },
    });
    const match = await includeCstdint.match(t.ctx);
    expect(match?.reason).toMatch(
      /^C\+\+ without <cstdint>: MSPUBMetaData\.h:38:60: error: ‘uint32_t’ has not been declared/,
    );
    const outcome = await includeCstdint.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.env).toMatchObject({ CXXFLAGS: '-g -O2 -include cstdint' });
  });

  it('appends to flags of the plan, and leaves C files and other errors alone', async () => {
    const t = heuristicContext(fixture('cxx-missing-cstdint'), {
      failure: { phase: 'build', command: 'make' },
    });
    const outcome = await includeCstdint.apply(
      { ...t.ctx, plan: { ...t.ctx.plan, env: { CXXFLAGS: '-O1' } } },
      { key: 'cstdint', reason: '' },
    );
    expect(outcome.plan?.env?.CXXFLAGS).toBe('-O1 -include cstdint');
    const c = heuristicContext("gcc -c a.c\na.c:3:1: error: unknown type name 'uint32_t'\n", {
      failure: { phase: 'build', command: 'make' },
    });
    expect(await includeCstdint.match(c.ctx)).toBeNull();
    for (const name of ['missing-header', 'gcc14-implicit-declaration', 'multiple-definition']) {
      const other = heuristicContext(fixture(name), { failure: { phase: 'build', command: 'make' } });
      expect(await includeCstdint.match(other.ctx), name).toBeNull();
    }
  });
});

// gfan 0.7 (Debian trixie): its Makefile compiles C++ with its own CFLAGS, never CXXFLAGS
const GFAN_MAKEFILE = `CC          = $(PREFIX)gcc
CXX         = $(PREFIX)g++
OPTFLAGS    =  -DGMPRATIONAL -Wuninitialized -O3
CFLAGS	  = $(OPTFLAGS) $(GPROFFLAG) -g $(CDDDEFINE_PREFIX) -std=c++2a #-pedantic
%.o: %.cpp
	$(CXX) $(CFLAGS) -c $< -o $(patsubst %.cpp,%.o,$<)
`;

describe('include-cstdint in a plain makefile that sets its own flags', () => {
  it('reads std::int32_t and gives make a compiler that includes <cstdint>', async () => {
    const t = heuristicContext(fixture('cxx-std-int32'), {
      plan: makePlan,
      failure: { phase: 'build', command: 'make -j"$(nproc)"' },
    });
    t.src('Makefile', GFAN_MAKEFILE);
    const match = await includeCstdint.match(t.ctx);
    expect(match?.reason).toContain('‘std::int32_t’ has not been declared');
    const outcome = await includeCstdint.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases[0]?.commands).toEqual([`make -j"$(nproc)" CXX='g++ -include cstdint'`]);
  });

  it('leaves make alone where CXXFLAGS reaches, and a compiler that is not GCC', async () => {
    for (const makefile of [
      'CXXFLAGS ?= -O2\n%.o: %.cc\n\t$(CXX) $(CXXFLAGS) -c $<\n',
      'CXX = clang++\nCXXFLAGS = -O2\n',
    ]) {
      const t = heuristicContext(fixture('cxx-std-int32'), {
        plan: makePlan,
        failure: { phase: 'build', command: 'make -j"$(nproc)"' },
      });
      t.src('Makefile', makefile);
      const outcome = await includeCstdint.apply(t.ctx, { key: 'cstdint', reason: '' });
      expect(outcome.plan?.phases[0]?.commands).toEqual(['make -j"$(nproc)"']);
      expect(outcome.plan?.env?.CXXFLAGS).toContain('-include cstdint');
    }
  });
});
