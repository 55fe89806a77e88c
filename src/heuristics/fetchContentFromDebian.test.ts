import { afterEach, describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import { fetchContentFromDebian } from './fetchContentFromDebian.ts';
import { recoveryHeuristics } from './index.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { runHeuristics } from './runHeuristics.ts';
import { autotoolsPlan, fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const cmakePlan: BuildPlan = {
  ...autotoolsPlan,
  buildSystem: 'cmake',
  phases: [
    { name: 'configure', commands: ['cmake -S . -B build -DCMAKE_INSTALL_PREFIX=/usr'] },
    { name: 'build', commands: ['cmake --build build'] },
  ],
};
const failure = { phase: 'configure', command: 'cmake -S . -B build -DCMAKE_INSTALL_PREFIX=/usr' };
/** The captured project: google benchmark through FetchContent, not behind any switch. */
const BENCH_CMAKE =
  'cmake_minimum_required(VERSION 3.14)\nproject(demo C CXX)\nadd_library(demo demo.c)\ninclude(FetchContent)\nFetchContent_Declare(benchmark URL https://downloads.example.invalid/benchmark-1.8.3.zip)\nFetchContent_MakeAvailable(benchmark)\nadd_executable(bench bench.cc)\ntarget_link_libraries(bench benchmark::benchmark)\n';
const GTEST_CMAKE =
  'cmake_minimum_required(VERSION 3.14)\nproject(demo C CXX)\ninclude(FetchContent)\nFetchContent_Declare(googletest URL https://downloads.example.invalid/googletest-1.14.0.zip)\nFetchContent_MakeAvailable(googletest)\n';

describe('fetchcontent-from-debian', () => {
  it("installs the package with the dependency's CMake package and lets FetchContent find it (captured)", async () => {
    const t = heuristicContext(fixture('cmake-fetchcontent-unconditional'), {
      plan: cmakePlan,
      failure,
      providers: { 'cmake-package:benchmark': 'libbenchmark-dev' },
    });
    t.src('CMakeLists.txt', BENCH_CMAKE);
    // the whole registry: nothing optional to turn off, so this is the repair that fires
    const firing = await runHeuristics(recoveryHeuristics, t.ctx, {});
    expect(firing?.heuristic).toBe('fetchcontent-from-debian');
    expect(firing?.key).toBe('fetchcontent-from-debian:find benchmark');
    expect(firing?.reason).toBe(
      'FetchContent cannot download benchmark (https://downloads.example.invalid/benchmark-1.8.3.zip)',
    );
    expect(firing?.outcome.applied).toBe(true);
    expect(t.installed).toEqual([['libbenchmark-dev']]);
    expect(firing?.outcome.plan?.packages).toEqual(['libbenchmark-dev']);
    expect(firing?.outcome.plan?.phases[0]?.commands[0]).toBe(
      'cmake -S . -B build -DCMAKE_INSTALL_PREFIX=/usr -DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS',
    );
    expect(firing?.outcome.plan?.phases[1]?.commands[0]).toBe('cmake --build build');
  });

  it('only sets the switch when the package is in the plan already, and stops once it is set', async () => {
    const plan = { ...cmakePlan, packages: ['libbenchmark-dev'] };
    const t = heuristicContext(fixture('cmake-fetchcontent-unconditional'), {
      plan,
      failure,
      providers: { 'cmake-package:benchmark': 'libbenchmark-dev' },
    });
    const match = await fetchContentFromDebian.match(t.ctx);
    const outcome = await fetchContentFromDebian.apply(t.ctx, match as HeuristicMatch);
    expect(t.installed).toEqual([]);
    expect(outcome.plan?.phases[0]?.commands[0]).toMatch(/ -DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=ALWAYS$/);
    const again = heuristicContext(fixture('cmake-fetchcontent-unconditional'), {
      plan: outcome.plan as BuildPlan,
      failure,
    });
    expect(await fetchContentFromDebian.match(again.ctx)).toBeNull();
  });

  it('says no package has it when Debian has none (the escalation then names the download)', async () => {
    const t = heuristicContext(fixture('cmake-fetchcontent-unconditional'), { plan: cmakePlan, failure });
    const match = await fetchContentFromDebian.match(t.ctx);
    const outcome = await fetchContentFromDebian.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(false);
    expect(outcome.description).toBe('no Debian package provides benchmark (FetchContent would download)');
    expect(t.lookups).toEqual(['cmake-package:benchmark']);
  });

  it("gives googletest Debian's source tree of it: its CMake package has another name", async () => {
    const t = heuristicContext(fixture('cmake-fetchcontent'), { plan: cmakePlan, failure });
    t.src('CMakeLists.txt', GTEST_CMAKE);
    const firing = await runHeuristics(recoveryHeuristics, t.ctx, {});
    expect(firing?.heuristic).toBe('fetchcontent-from-debian');
    expect(t.installed).toEqual([['googletest']]);
    expect(firing?.outcome.plan?.phases[0]?.commands[0]).toBe(
      'cmake -S . -B build -DCMAKE_INSTALL_PREFIX=/usr -DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=/usr/src/googletest',
    );
  });

  it('leaves a download behind an optional switch to disable-downloading-option', async () => {
    const t = heuristicContext(fixture('cmake-fetchcontent'), { plan: cmakePlan, failure });
    t.src(
      'CMakeLists.txt',
      'cmake_minimum_required(VERSION 3.14)\nproject(demo C CXX)\noption(DEMO_BUILD_TESTS "Build the tests" ON)\nadd_library(demo demo.c)\nif(DEMO_BUILD_TESTS)\n  include(FetchContent)\n  FetchContent_Declare(googletest URL https://downloads.example.invalid/googletest-1.14.0.zip)\n  FetchContent_MakeAvailable(googletest)\nendif()\n',
    );
    expect((await runHeuristics(recoveryHeuristics, t.ctx, {}))?.heuristic).toBe(
      'disable-downloading-option',
    );
  });

  it('does not touch a build that is not CMake', async () => {
    const t = heuristicContext(fixture('cmake-fetchcontent-unconditional'), {
      providers: { 'cmake-package:benchmark': 'libbenchmark-dev' },
    });
    expect(await fetchContentFromDebian.match(t.ctx)).toBeNull();
  });
});
