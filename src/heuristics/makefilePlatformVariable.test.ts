import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makefilePlatformVariable } from './makefilePlatformVariable.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, makePlan, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

// drawterm-9front (Debian's 0~git20220608): the README says "To build on Unix, run CONF=unix make"
function drawterm(platforms: string[]) {
  const t = heuristicContext(fixture('make-platform-include'), {
    plan: makePlan,
    failure: { phase: 'build', command: 'make -j"$(nproc)"', exitCode: 2 },
  });
  t.src('Makefile', 'ROOT=.\n\ninclude Make.config\n\nOFILES=main.$O\n');
  t.src('Make.config', 'AUDIO=none\ninclude $(ROOT)/Make.$(CONF)\n');
  for (const p of platforms) t.src(`Make.${p}`, 'CC=gcc\n');
  return t;
}

describe('makefile-platform-variable', () => {
  it("sets the variable to the tree's Unix configuration when make looks for Make.", async () => {
    const t = drawterm(['android', 'freebsd', 'osx-x11', 'unix', 'win32', 'pthread']);
    const match = (await makefilePlatformVariable.match(t.ctx)) as HeuristicMatch;
    expect(match.key).toBe('platform-variable:CONF=unix');
    expect(match.reason).toContain('Make.unix');
    expect(match.reason).not.toContain('has Make.android, Make.config');
    const outcome = await makefilePlatformVariable.apply(t.ctx, match);
    expect(outcome.applied).toBe(true);
    expect(outcome.plan?.phases.map((p) => p.commands[0])).toEqual([
      'make -j"$(nproc)" CONF=unix',
      'make install DESTDIR=/build/dest CONF=unix',
    ]);
  });

  it('prefers a Linux configuration to the Unix one', async () => {
    const t = drawterm(['unix', 'linux', 'osx']);
    expect((await makefilePlatformVariable.match(t.ctx))?.key).toBe('platform-variable:CONF=linux');
  });

  it('stays out when the tree has no configuration for Linux or Unix, or only a link to one', async () => {
    expect(await makefilePlatformVariable.match(drawterm(['osx', 'win32']).ctx)).toBeNull();
    const t = drawterm(['osx']);
    symlinkSync('/etc/hostname', join(t.workspace, 'src', 'Make.unix'));
    expect(await makefilePlatformVariable.match(t.ctx)).toBeNull();
  });

  it('stays out of an include that is not per platform, and of other commands', async () => {
    const t = drawterm(['unix']);
    t.src('Make.config', 'include config.mk\n');
    expect(await makefilePlatformVariable.match(t.ctx)).toBeNull();
    const cmake = drawterm(['unix']);
    cmake.ctx.failure = { ...cmake.ctx.failure, command: 'cmake --build build' };
    expect(await makefilePlatformVariable.match(cmake.ctx)).toBeNull();
  });
});
