import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import { absentSubmodule } from './absentSubmodule.ts';
import { recoveryHeuristics } from './index.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { autotoolsPlan, fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const cmakePlan: BuildPlan = {
  ...autotoolsPlan,
  buildSystem: 'cmake',
  phases: [
    {
      name: 'configure',
      commands: ['cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr'],
    },
    { name: 'build', commands: ['cmake --build build'] },
  ],
};
const cmakeFailure = { phase: 'configure', command: cmakePlan.phases[0]?.commands[0] as string };

const MBEDTLS_GITMODULES =
  '[submodule "framework"]\n\tpath = framework\n\turl = https://github.com/Mbed-TLS/mbedtls-framework\n[submodule "tf-psa-crypto"]\n\tpath = tf-psa-crypto\n\turl = https://github.com/Mbed-TLS/TF-PSA-Crypto.git\n';
/** The shape of mbedtls's top CMakeLists.txt around its check (line 339 is the message). */
const MBEDTLS_CMAKE = `${'\n'.repeat(70)}option(ENABLE_PROGRAMS "Build Mbed TLS programs." ON)\noption(ENABLE_TESTING "Build Mbed TLS tests." ON)\n${'\n'.repeat(265)}if (NOT EXISTS "\${MBEDTLS_FRAMEWORK_DIR}/CMakeLists.txt")\n    if (EXISTS "\${MBEDTLS_DIR}/.git")\n        message(FATAL_ERROR "\${MBEDTLS_FRAMEWORK_DIR}/CMakeLists.txt not found")\n    endif()\nendif()\nadd_subdirectory(framework)\n`;

/** The captured demo project: its tests folder is an empty submodule. */
const DEMO_CMAKE =
  'cmake_minimum_required(VERSION 3.14)\nproject(demo C)\noption(DEMO_BUILD_TESTS "Build the tests" ON)\nadd_library(demo demo.c)\nif(DEMO_BUILD_TESTS)\n  add_subdirectory(tests/munit)\nendif()\n';

describe('absent-submodule', () => {
  it('names the submodule mbedtls cannot do without, with its URL (its real configure error)', async () => {
    const t = heuristicContext(fixture('cmake-submodule-missing'), {
      plan: cmakePlan,
      failure: cmakeFailure,
    });
    t.src('.gitmodules', MBEDTLS_GITMODULES);
    t.src('CMakeLists.txt', MBEDTLS_CMAKE);
    mkdirSync(join(t.workspace, 'src/framework'));
    mkdirSync(join(t.workspace, 'src/tf-psa-crypto'));
    const match = await absentSubmodule.match(t.ctx);
    expect(match).toEqual({
      key: 'framework',
      reason:
        'the submodule `framework` (https://github.com/Mbed-TLS/mbedtls-framework) has no content in this checkout',
    });
    const outcome = await absentSubmodule.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(false);
    expect(outcome.plan).toBeUndefined();
    expect(outcome.description).toMatch(/mbedtls-framework\) has no content .* framework must be fetched$/);
  });

  it('does not match when the submodule has its content (the error is then something else)', async () => {
    const t = heuristicContext(fixture('cmake-submodule-missing'), {
      plan: cmakePlan,
      failure: cmakeFailure,
    });
    t.src('.gitmodules', MBEDTLS_GITMODULES);
    t.src('framework/CMakeLists.txt', 'project(framework)\n');
    t.src('tf-psa-crypto/CMakeLists.txt', 'project(crypto)\n');
    expect(await absentSubmodule.match(t.ctx)).toBeNull();
  });

  it('turns off the optional tests part that adds an empty submodule (captured in the sandbox)', async () => {
    const t = heuristicContext(fixture('cmake-submodule-optional'), {
      plan: cmakePlan,
      failure: cmakeFailure,
    });
    t.src(
      '.gitmodules',
      '[submodule "tests/munit"]\n\tpath = tests/munit\n\turl = https://github.com/ngtcp2/munit\n',
    );
    t.src('CMakeLists.txt', DEMO_CMAKE);
    mkdirSync(join(t.workspace, 'src/tests/munit'), { recursive: true });
    const match = await absentSubmodule.match(t.ctx);
    expect(match?.key).toBe('tests/munit -DDEMO_BUILD_TESTS=OFF');
    const outcome = await absentSubmodule.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(true);
    expect(outcome.plan?.phases[0]?.commands[0]).toMatch(
      /-DCMAKE_INSTALL_PREFIX=\/usr -DDEMO_BUILD_TESTS=OFF$/,
    );
    expect(outcome.plan?.phases[1]?.commands[0]).toBe('cmake --build build');
    // Once the switch is set, nothing is left to turn off: the heuristic only names the submodule.
    const again = heuristicContext(fixture('cmake-submodule-optional'), {
      plan: outcome.plan as BuildPlan,
      failure: cmakeFailure,
    });
    again.src('.gitmodules', '[submodule "m"]\n\tpath = tests/munit\n');
    again.src('CMakeLists.txt', DEMO_CMAKE);
    expect((await absentSubmodule.match(again.ctx))?.key).toBe('tests/munit');
  });

  it('turns off the tests that add a vendored folder a release tarball left out (real lib3mf output)', async () => {
    const t = heuristicContext(fixture('cmake-add-subdirectory-absent'), {
      plan: cmakePlan,
      failure: cmakeFailure,
    });
    t.src(
      'CMakeLists.txt',
      'option(LIB3MF_TESTS "Switch whether the tests should be build" ON)\nadd_subdirectory(UnitTests)\n',
    );
    t.src('UnitTests/CMakeLists.txt', 'ADD_SUBDIRECTORY(googletest)\n');
    const match = await absentSubmodule.match(t.ctx);
    expect(match).toEqual({
      key: 'UnitTests/googletest -DLIB3MF_TESTS=OFF',
      reason:
        'the folder UnitTests/googletest that CMake adds is not in the source (a release without its vendored copy)',
    });
    const outcome = await absentSubmodule.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases[0]?.commands[0]).toMatch(/ -DLIB3MF_TESTS=OFF$/);
  });

  it("uses the project's switch for the system copy of the library the submodule holds", async () => {
    const t = heuristicContext(fixture('cmake-submodule-source-file'), {
      plan: cmakePlan,
      failure: cmakeFailure,
    });
    t.src('.gitmodules', '[submodule "third-party/urlparse"]\n\tpath = third-party/urlparse\n');
    t.src(
      'CMakeLists.txt',
      'project(demo C)\ninclude(CMakeOptions.txt)\noption(BUILD_TESTING "tests" ON)\nadd_subdirectory(third-party)\n',
    );
    t.src('CMakeOptions.txt', 'option(DEMO_USE_SYSTEM_URLPARSE "Use the system urlparse" OFF)\n');
    const match = await absentSubmodule.match(t.ctx);
    expect(match?.key).toBe('third-party/urlparse -DDEMO_USE_SYSTEM_URLPARSE=ON');
    const outcome = await absentSubmodule.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases[0]?.commands[0]).toMatch(/ -DDEMO_USE_SYSTEM_URLPARSE=ON$/);
  });

  it('finds a source file of the submodule relative to the CMake file that names it', async () => {
    const t = heuristicContext(fixture('cmake-submodule-source-file'), {
      plan: cmakePlan,
      failure: cmakeFailure,
    });
    t.src(
      '.gitmodules',
      '[submodule "u"]\n\tpath = third-party/urlparse\n\turl = https://github.com/ngtcp2/urlparse\n',
    );
    t.src('CMakeLists.txt', 'project(demo C)\nadd_subdirectory(third-party)\n');
    const match = await absentSubmodule.match(t.ctx);
    expect(match?.key).toBe('third-party/urlparse');
    expect(match?.reason).toContain('(https://github.com/ngtcp2/urlparse)');
  });

  it("adds configure's switch for the part when make enters the empty submodule", async () => {
    const output = `Making all in tests/munit\n${fixture('no-makefile')}`;
    const t = heuristicContext(output, { failure: { phase: 'build', command: 'make' } });
    t.src('.gitmodules', '[submodule "munit"]\n\tpath = tests/munit\n');
    t.src('configure', '#!/bin/sh\n  --disable-tests         do not build the tests\n');
    const match = await absentSubmodule.match(t.ctx);
    expect(match?.key).toBe('tests/munit --disable-tests');
    const outcome = await absentSubmodule.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases[0]?.commands[0]).toBe('./configure --prefix=/usr --disable-tests');
  });

  it('comes before the package installs in the registry', () => {
    const names = recoveryHeuristics.map((h) => h.name);
    expect(names.indexOf('absent-submodule')).toBeGreaterThan(-1);
    expect(names.indexOf('absent-submodule')).toBeLessThan(names.indexOf('install-missing-package'));
    expect(names.indexOf('absent-submodule')).toBeLessThan(names.indexOf('cmake-project-message'));
  });
});

describe('absent-submodule and the names in options', () => {
  it("takes a system switch only when it names the submodule's library as a whole word", async () => {
    const t = heuristicContext(fixture('cmake-submodule-source-file'), {
      plan: cmakePlan,
      failure: cmakeFailure,
    });
    t.src('.gitmodules', '[submodule "u"]\n\tpath = third-party/urlparse\n');
    t.src(
      'CMakeLists.txt',
      'option(USE_SYSTEM_URLPARSEX "another library" OFF)\noption(WITH_BUNDLED_URL "another one" ON)\nadd_subdirectory(third-party)\n',
    );
    expect((await absentSubmodule.match(t.ctx))?.key).toBe('third-party/urlparse');
    t.src('CMakeLists.txt', 'option(DEMO_BUNDLED_URLPARSE "bundled" ON)\nadd_subdirectory(third-party)\n');
    expect((await absentSubmodule.match(t.ctx))?.key).toBe(
      'third-party/urlparse -DDEMO_BUNDLED_URLPARSE=OFF',
    );
  });
});
