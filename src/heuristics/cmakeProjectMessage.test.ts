import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import { cmakeProjectMessage, fromCheckLog } from './cmakeProjectMessage.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const cmakePlan: BuildPlan = {
  buildSystem: 'cmake',
  dir: '.',
  phases: [{ name: 'configure', commands: ['cmake -S . -B build -DCMAKE_BUILD_TYPE=Release'] }],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};
/** Real cmake 3.25 output and CMakeError.log (fixtures/capture-host.sh). */
const output = fixture('cmake-project-message');
const errorLog = fixture('cmake-project-message-error-log');

describe('cmake-project-message', () => {
  it("reads the header CMake's failed check did not find", () => {
    expect(fromCheckLog(errorLog)).toEqual([{ kind: 'header', name: 'zstd.h' }]);
  });

  it("installs the package of the failed check behind the project's own error", async () => {
    const t = heuristicContext(output, { plan: cmakePlan, providers: { 'header:zstd.h': 'libzstd-dev' } });
    t.src('build/CMakeFiles/CMakeError.log', errorLog);
    const match = await cmakeProjectMessage.match(t.ctx);
    expect(match).toEqual({
      key: 'header:zstd.h',
      reason: 'CMake: Zstandard support requested but not available',
    });
    const outcome = await cmakeProjectMessage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['libzstd-dev'] } });
  });

  it('does not match without a name, nor read a log that links out of the tree', async () => {
    const t = heuristicContext(output, { plan: cmakePlan });
    expect(await cmakeProjectMessage.match(t.ctx)).toBeNull();
    const outside = join(t.workspace, 'CMakeError.log');
    writeFileSync(outside, errorLog);
    t.src('build/CMakeFiles/.keep');
    symlinkSync(outside, join(t.workspace, 'src', 'build', 'CMakeFiles', 'CMakeError.log'));
    expect(await cmakeProjectMessage.match(t.ctx)).toBeNull();
  });

  it("leaves CMake's Find module errors to cmake-missing-package", async () => {
    expect(await cmakeProjectMessage.match(heuristicContext(fixture('cmake-could-not-find')).ctx)).toBeNull();
  });

  it("reads a project's Find module that stops as the package it is named after", async () => {
    const t = heuristicContext(fixture('cmake-find-module-message'), {
      plan: cmakePlan,
      providers: { 'pkgconfig:libindi': 'libindi-dev' },
    });
    const match = await cmakeProjectMessage.match(t.ctx);
    expect(match?.key).toBe('word:INDI');
    expect(match?.reason).toBe('CMake: Could not find INDI include directory');
    const outcome = await cmakeProjectMessage.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['libindi-dev'] } });
  });
});
