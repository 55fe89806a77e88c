import { afterEach, describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import { cmakeMissing, cmakeMissingPackage } from './cmakeMissingPackage.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import {
  fixture,
  heuristicContext,
  optionalDependency,
  removeWorkspaces,
} from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const cmakePlan: BuildPlan = {
  buildSystem: 'cmake',
  dir: '.',
  phases: [{ name: 'configure', commands: ['cmake -S . -B build'] }],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

describe('cmake-missing-package', () => {
  it('reads the three ways CMake says what it did not find (real cmake 3.25 output)', () => {
    expect(cmakeMissing(fixture('cmake-could-not-find'))).toEqual({
      what: 'Could NOT find GIF',
      wanted: [
        { kind: 'cmake-package', name: 'GIF' },
        { kind: 'pkgconfig', name: 'gif' },
        { kind: 'library', name: 'gif' },
      ],
    });
    expect(cmakeMissing(fixture('cmake-package-config-not-found'))?.wanted[0]).toEqual({
      kind: 'cmake-package',
      name: 'fmt',
    });
    expect(cmakeMissing(fixture('cmake-program-not-found'))).toEqual({
      what: 'find_program of PROTOC_EXECUTABLE',
      wanted: [{ kind: 'command', name: 'protoc' }],
    });
  });

  it('installs the package of an imported target no find_package made (a QUIET one, real vulkan-loader output)', async () => {
    expect(cmakeMissing(fixture('cmake-imported-target-missing'))).toEqual({
      what: 'no target Vulkan::Headers',
      wanted: [
        { kind: 'cmake-package', name: 'VulkanHeaders' },
        { kind: 'cmake-package', name: 'Vulkan' },
        { kind: 'pkgconfig', name: 'vulkan' },
        { kind: 'library', name: 'vulkan' },
      ],
    });
    const t = heuristicContext(fixture('cmake-imported-target-missing'), {
      plan: cmakePlan,
      dependencies: [optionalDependency('cmake-package', 'VulkanHeaders', 'libvulkan-dev')],
    });
    const match = await cmakeMissingPackage.match(t.ctx);
    const outcome = await cmakeMissingPackage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['libvulkan-dev'] } });
    // a target CMake makes itself is no package
    expect(
      cmakeMissing('Target "x" links to:\n\n    Threads::Threads\n\n  but the target was not found.'),
    ).toBeNull();
  });

  it("installs the library CMake's own Find module looked for", async () => {
    const t = heuristicContext(fixture('cmake-could-not-find'), {
      plan: cmakePlan,
      providers: { 'library:gif': 'libgif-dev' },
    });
    const match = await cmakeMissingPackage.match(t.ctx);
    expect(match).toMatchObject({ reason: 'CMake: Could NOT find GIF' });
    const outcome = await cmakeMissingPackage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['libgif-dev'] } });
    // the config file and the pkg-config module were asked first
    expect(t.lookups).toEqual(['cmake-package:GIF', 'pkgconfig:gif', 'library:gif']);
  });

  it('takes the package the analysis resolved for the find_package call', async () => {
    const t = heuristicContext(fixture('cmake-package-config-not-found'), {
      plan: cmakePlan,
      dependencies: [optionalDependency('cmake-package', 'fmt', 'libfmt-dev')],
    });
    const match = await cmakeMissingPackage.match(t.ctx);
    const outcome = await cmakeMissingPackage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['libfmt-dev'] } });
    expect(t.lookups).toEqual([]);
  });

  it('installs the package of a required program', async () => {
    const t = heuristicContext(fixture('cmake-program-not-found'), {
      plan: cmakePlan,
      providers: { 'command:protoc': 'protobuf-compiler' },
    });
    const match = await cmakeMissingPackage.match(t.ctx);
    const outcome = await cmakeMissingPackage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['protobuf-compiler'] } });
    expect(t.installed).toEqual([['protobuf-compiler']]);
  });

  it('reports a package apt cannot install', async () => {
    const t = heuristicContext(fixture('cmake-program-not-found'), {
      plan: cmakePlan,
      providers: { 'command:protoc': 'protobuf-compiler' },
      installExitCode: 100,
    });
    const outcome = await cmakeMissingPackage.apply(
      t.ctx,
      (await cmakeMissingPackage.match(t.ctx)) as HeuristicMatch,
    );
    expect(outcome).toMatchObject({
      applied: false,
      description: expect.stringMatching(/installing protobuf-compiler failed/),
    });
  });

  it("reads the project's own Find module named in the call stack for the names it looks for", async () => {
    const t = heuristicContext(fixture('cmake-project-find-module'), {
      plan: cmakePlan,
      providers: { 'library:mp3lame': 'libmp3lame-dev' },
    });
    // the module of the captured run (fixtures/capture-host.sh)
    t.src(
      'cmake/FindLame.cmake',
      'find_path(LAME_INCLUDE_DIR lame/lame.h)\nfind_library(LAME_LIBRARY NAMES mp3lame mp3lame-static)\ninclude(FindPackageHandleStandardArgs)\nfind_package_handle_standard_args(Lame REQUIRED_VARS LAME_LIBRARY LAME_INCLUDE_DIR)\n',
    );
    const match = await cmakeMissingPackage.match(t.ctx);
    expect(match?.key.split(',')).toEqual([
      'cmake-package:Lame',
      'pkgconfig:lame',
      'library:lame',
      'header:lame/lame.h',
      'library:mp3lame',
      'library:mp3lame-static',
    ]);
    const outcome = await cmakeMissingPackage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['libmp3lame-dev'] } });
  });

  it('does not read a Find module outside the tree', async () => {
    const output = fixture('cmake-project-find-module').replace(
      'cmake/FindLame.cmake',
      '../../FindLame.cmake',
    );
    const t = heuristicContext(output, { plan: cmakePlan });
    expect((await cmakeMissingPackage.match(t.ctx))?.key).toBe(
      'cmake-package:Lame,pkgconfig:lame,library:lame',
    );
  });

  it('leaves other failures alone', async () => {
    expect(await cmakeMissingPackage.match(heuristicContext(fixture('cmake-fetchcontent')).ctx)).toBeNull();
    expect(await cmakeMissingPackage.match(heuristicContext(fixture('missing-header')).ctx)).toBeNull();
  });
});
