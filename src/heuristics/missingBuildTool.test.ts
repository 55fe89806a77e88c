import { afterEach, describe, expect, it } from 'vitest';
import { missingBuildTool, missingTool } from './missingBuildTool.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

describe('missing-build-tool', () => {
  it.each([
    ['tool-cannot-find', 'protoc'],
    ['tool-must-be-in-path', 'gperf'],
  ])('reads %s as the program %s', (name, program) => {
    expect(missingTool(fixture(name))).toBe(program);
  });

  it('installs the package that provides the program', async () => {
    const t = heuristicContext(fixture('tool-must-be-in-path'), {
      failure: { phase: 'build', command: 'make' },
      providers: { 'command:gperf': 'gperf' },
    });
    const match = await missingBuildTool.match(t.ctx);
    expect(match).toMatchObject({ key: 'command:gperf', reason: 'the build cannot find the program gperf' });
    const outcome = await missingBuildTool.apply(t.ctx, match as HeuristicMatch);
    expect(outcome).toMatchObject({ applied: true, plan: { packages: ['gperf'] } });
  });

  it('is not fooled by sentences about files, headers or libraries', () => {
    for (const name of ['missing-header', 'missing-library', 'cmake-could-not-find', 'no-makefile'])
      expect(missingTool(fixture(name)), name).toBeNull();
    expect(missingTool('error: cannot find the file')).toBeNull();
    expect(missingTool('/usr/bin/ld: cannot find crt1.o: No such file or directory')).toBeNull();
  });
});
