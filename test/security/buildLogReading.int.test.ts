import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cmakeMissingPackage } from '../../src/heuristics/cmakeMissingPackage.ts';
import { cmakeProjectMessage } from '../../src/heuristics/cmakeProjectMessage.ts';
import { configureMissingDependency } from '../../src/heuristics/configureMissingDependency.ts';
import {
  fixture,
  heuristicContext,
  removeWorkspaces,
} from '../../src/heuristics/testing/heuristicContext.ts';

afterEach(removeWorkspaces);

/**
 * The logs and Find modules the dependency heuristics read are in the build's tree, which the
 * source controls: a link to a host file, a FIFO, a path out of the tree. None may be read (the
 * host file's names must not reach the package lookup), none may hang the port.
 */
describe('heuristics reading files of a hostile build tree', () => {
  it('reads no config.log, CMake log or Find module that leaves the tree, and does not hang on a FIFO', async () => {
    const configure = heuristicContext(fixture('configure-library-not-found'));
    const host = join(configure.workspace, 'host');
    mkdirSync(host);
    const canary = join(host, 'canary.log');
    writeFileSync(
      canary,
      'configure:1: checking for x\n/usr/bin/ld: cannot find -lhostsecret: No such file or directory\nfatal error: hostsecret.h: No such file or directory\n',
    );
    const before = { text: readFileSync(canary, 'utf8'), mtime: statSync(canary).mtimeMs };

    // config.log: a link to the host file; build/config.log: a FIFO
    symlinkSync(canary, join(configure.workspace, 'src', 'config.log'));
    mkdirSync(join(configure.workspace, 'src', 'build'));
    execFileSync('mkfifo', [join(configure.workspace, 'src', 'build', 'config.log')]);
    const match = await configureMissingDependency.match(configure.ctx);
    expect(match?.key).not.toMatch(/hostsecret/);

    // CMake's check log as a link out of the tree
    const cmake = heuristicContext(fixture('cmake-project-message'), {
      plan: { ...configure.ctx.plan, phases: [{ name: 'configure', commands: ['cmake -S . -B build'] }] },
    });
    cmake.src('build/CMakeFiles/.keep');
    symlinkSync(canary, join(cmake.workspace, 'src', 'build', 'CMakeFiles', 'CMakeError.log'));
    expect(await cmakeProjectMessage.match(cmake.ctx)).toBeNull();

    // the Find module CMake's call stack names, as a link to a host file
    const module = heuristicContext(fixture('cmake-project-find-module'));
    const hostModule = join(host, 'FindLame.cmake');
    writeFileSync(hostModule, 'find_library(LAME_LIBRARY NAMES hostsecret)\n');
    module.src('cmake/.keep');
    symlinkSync(hostModule, join(module.workspace, 'src', 'cmake', 'FindLame.cmake'));
    expect((await cmakeMissingPackage.match(module.ctx))?.key).not.toMatch(/hostsecret/);

    for (const t of [configure, cmake, module]) expect(t.lookups.join(' ')).not.toMatch(/hostsecret/);
    expect(readFileSync(canary, 'utf8')).toBe(before.text);
    expect(statSync(canary).mtimeMs).toBe(before.mtime);
  });
});
