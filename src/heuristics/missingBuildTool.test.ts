import { afterEach, describe, expect, it } from 'vitest';
import { classifyError } from '../port/steps/classifyError.ts';
import { firstErrorLine } from '../port/steps/firstErrorLine.ts';
import { missingBuildTool, missingTool } from './missingBuildTool.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

describe('missing-build-tool', () => {
  it.each([
    ['tool-cannot-find', 'protoc'],
    ['tool-must-be-in-path', 'gperf'],
    ['make-tool-not-in-path', 'gnustep-config'],
    ['autogen-you-must-have', 'libtool'],
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

  it("classifies a Makefile's own words for a missing program as MISSING_TOOLS, its $(error) as the error line", () => {
    const output = fixture('make-tool-not-in-path');
    expect(classifyError(output).category).toBe('MISSING_TOOLS');
    expect(classifyError(fixture('autogen-you-must-have')).category).toBe('MISSING_TOOLS');
    expect(firstErrorLine(output)?.text).toBe(
      'GNUmakefile:16: *** You need to set GNUSTEP_MAKEFILES before compiling!.  Stop.',
    );
  });
});
