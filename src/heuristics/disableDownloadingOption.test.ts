import { afterEach, describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import { disableDownloadingOption } from './disableDownloadingOption.ts';
import { recoveryHeuristics } from './index.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { runHeuristics } from './runHeuristics.ts';
import { autotoolsPlan, fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const cmakePlan: BuildPlan = {
  ...autotoolsPlan,
  buildSystem: 'cmake',
  phases: [
    { name: 'configure', commands: ['cmake -S . -B build'] },
    { name: 'build', commands: ['cmake --build build'] },
  ],
};

/** The captured projects (fixtures/capture.sh). */
const GOOGLETEST_DOWNLOAD =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: CMake's own ${VAR} syntax
  'cmake_minimum_required(VERSION 3.14)\nproject(demo C CXX)\noption(DEMO_BUILD_TESTS "Build the tests" ON)\nadd_library(demo demo.c)\nif(DEMO_BUILD_TESTS)\n  configure_file(CMakeLists.txt.in googletest-download/CMakeLists.txt)\n  execute_process(COMMAND ${CMAKE_COMMAND} -G "${CMAKE_GENERATOR}" . RESULT_VARIABLE result WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/googletest-download)\n  if(result)\n    message(FATAL_ERROR "CMake step for googletest failed: ${result}")\n  endif()\n  execute_process(COMMAND ${CMAKE_COMMAND} --build . RESULT_VARIABLE result WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/googletest-download)\n  if(result)\n    message(FATAL_ERROR "Build step for googletest failed: ${result}")\n  endif()\nendif()\n';
const EXTERNAL_PROJECT =
  'option(DEMO_BUILD_BENCHMARKS "Build the benchmarks" ON)\nadd_library(demo demo.c)\nif(DEMO_BUILD_BENCHMARKS)\n  include(ExternalProject)\n  ExternalProject_Add(benchmark\n    GIT_REPOSITORY https://github.com/google/benchmark.git\n    GIT_TAG v1.8.3\n    CMAKE_ARGS -DBENCHMARK_ENABLE_TESTING=OFF)\nendif()\n';

describe('disable-downloading-option beyond a FetchContent call', () => {
  it("reads the project's message after its googletest-download sub-build (captured)", async () => {
    const t = heuristicContext(fixture('cmake-googletest-download'), { plan: cmakePlan });
    t.src('CMakeLists.txt', GOOGLETEST_DOWNLOAD);
    const firing = await runHeuristics(recoveryHeuristics, t.ctx, {});
    expect(firing?.heuristic).toBe('disable-downloading-option');
    expect(firing?.reason).toBe(
      'the googletest download sub-build at CMakeLists.txt:13 downloads code when DEMO_BUILD_TESTS is on',
    );
    expect(firing?.outcome.plan?.phases[0]?.commands[0]).toBe('cmake -S . -B build -DDEMO_BUILD_TESTS=OFF');
  });

  it('finds the ExternalProject whose download fails at build time in the tree (captured)', async () => {
    const t = heuristicContext(fixture('cmake-externalproject-build'), {
      plan: cmakePlan,
      failure: { phase: 'build', command: 'cmake --build build' },
    });
    t.src(
      'CMakeLists.txt',
      'cmake_minimum_required(VERSION 3.14)\nproject(demo C CXX)\nadd_subdirectory(bench)\n',
    );
    t.src('bench/CMakeLists.txt', EXTERNAL_PROJECT);
    // what the failed build left: CMake's generated scripts name the project too, and are not read
    t.src('build/benchmark-prefix/tmp/benchmark-gitclone.cmake', 'ExternalProject_Add(benchmark)\n');
    const match = await disableDownloadingOption.match(t.ctx);
    expect(match).toEqual({
      key: 'DEMO_BUILD_BENCHMARKS',
      reason: 'ExternalProject_Add at bench/CMakeLists.txt:5 downloads code when DEMO_BUILD_BENCHMARKS is on',
    });
    const outcome = await disableDownloadingOption.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases[0]?.commands[0]).toBe('cmake -S . -B build -DDEMO_BUILD_BENCHMARKS=OFF');
  });

  it('leaves an ExternalProject that is not behind an optional switch alone', async () => {
    const t = heuristicContext(fixture('cmake-externalproject-build'), { plan: cmakePlan });
    t.src('CMakeLists.txt', EXTERNAL_PROJECT.replace('if(DEMO_BUILD_BENCHMARKS)', 'if(UNIX)'));
    expect(await disableDownloadingOption.match(t.ctx)).toBeNull();
  });
});
