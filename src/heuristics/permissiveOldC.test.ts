import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runProcess } from '../process/runProcess.ts';
import { permissiveOldC } from './permissiveOldC.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, makePlan, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

// dealer (Debian trixie): a plain Makefile that sets CFLAGS itself, so CFLAGS from the
// environment never reaches its compile line
const DEALER_MAKEFILE = `CC      = gcc
CFLAGS = -Wall -pedantic -I. -DNDEBUG -c
dealer: defs.o
\t$(CC) -o $@ defs.o
.c.o:
\t\${CC} \${CFLAGS} -o $@ $<
`;

describe('permissive-old-c in a plain makefile that sets its own flags', () => {
  it('gives make a compiler with -fpermissive, which reaches the compile line', async () => {
    const t = heuristicContext(fixture('gcc14-implicit-int-own-cflags'), {
      plan: makePlan,
      failure: { phase: 'build', command: 'make -j"$(nproc)"' },
    });
    t.src('Makefile', DEALER_MAKEFILE);
    t.src('defs.c', 'int main(void) { return 0; }\n');
    const match = await permissiveOldC.match(t.ctx);
    expect(match?.reason).toContain('type of ‘any’ defaults to ‘int’');
    const outcome = await permissiveOldC.apply(t.ctx, match as HeuristicMatch);
    const command = outcome.plan?.phases[0]?.commands[0] as string;
    expect(command).toBe(`make -j"$(nproc)" CC='gcc -fpermissive'`);
    expect(outcome.description).toContain('Makefile sets its own flags');
    // what make would run with that command line (a dry run of the test's own makefile)
    const dry = await runProcess({
      command: ['/bin/sh', '-c', command.replace(/^make/, 'make -n')],
      cwd: join(t.workspace, 'src'),
    });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('gcc -fpermissive -Wall -pedantic -I. -DNDEBUG -c -o defs.o defs.c');
  });

  it('leaves make alone where the environment reaches, and keeps CFLAGS either way', async () => {
    const t = heuristicContext(fixture('gcc14-implicit-int-own-cflags'), {
      plan: makePlan,
      failure: { phase: 'build', command: 'make -j"$(nproc)"' },
    });
    t.src('Makefile', 'CFLAGS ?= -O2\n.c.o:\n\t$(CC) $(CFLAGS) -c $<\n');
    const outcome = await permissiveOldC.apply(t.ctx, { key: 'cflags', reason: '' });
    expect(outcome.plan?.phases[0]?.commands).toEqual(['make -j"$(nproc)"']);
    expect(outcome.plan?.env?.CFLAGS).toBe('-g -O2 -fpermissive');
  });
});

// uucp (Debian trixie): configure's test for void calls exit() without <stdlib.h>, GCC 14
// rejects it, configure answers "no void", and the build stops at uucp.h's #error
describe("permissive-old-c for configure's old test programs", () => {
  const buildFailure = { phase: 'build', command: 'make -j"$(nproc)"', exitCode: 2 };

  it("reads GCC 14's error in config.log when the build stops on configure's wrong answer", async () => {
    const t = heuristicContext(fixture('gcc14-configure-wrong-answer'), { failure: buildFailure });
    t.src('config.log', fixture('gcc14-configure-test-config-log'));
    const match = await permissiveOldC.match(t.ctx);
    expect(match?.key).toBe('cflags');
    expect(match?.reason).toContain(
      "config.log: conftest.c:23:28: error: implicit declaration of function 'exit' [-Wimplicit-function-declaration]",
    );
    const outcome = await permissiveOldC.apply(t.ctx, match as HeuristicMatch);
    // the environment of every command, configure's included
    expect(outcome.plan?.env?.CFLAGS).toBe('-g -O2 -fpermissive');
    expect(outcome.plan?.phases).toEqual(t.ctx.plan.phases);
  });

  it('finds the config.log of a build in a build folder', async () => {
    const t = heuristicContext(fixture('gcc14-configure-wrong-answer'), { failure: buildFailure });
    t.src('build/config.log', fixture('gcc14-configure-test-config-log'));
    expect((await permissiveOldC.match(t.ctx))?.key).toBe('cflags');
  });

  it('leaves a config.log alone whose failed tests are only missing headers', async () => {
    const t = heuristicContext(fixture('gcc14-configure-wrong-answer'), { failure: buildFailure });
    const log = fixture('gcc14-configure-test-config-log')
      .split('\n')
      .filter((l) => !/-Wimplicit-function-declaration/.test(l))
      .join('\n');
    expect(log).toContain('fatal error: nonexistent-header.h: No such file or directory');
    t.src('config.log', log);
    expect(await permissiveOldC.match(t.ctx)).toBeNull();
  });

  it('does not read config.log for a failure of configure itself, nor one outside the tree', async () => {
    const t = heuristicContext(fixture('gcc14-configure-wrong-answer'), {
      failure: { phase: 'configure', command: './configure --prefix=/usr' },
    });
    t.src('config.log', fixture('gcc14-configure-test-config-log'));
    expect(await permissiveOldC.match(t.ctx)).toBeNull();

    const u = heuristicContext(fixture('gcc14-configure-wrong-answer'), { failure: buildFailure });
    const outside = join(u.workspace, 'host-config.log');
    writeFileSync(outside, fixture('gcc14-configure-test-config-log'));
    symlinkSync(outside, join(u.workspace, 'src', 'config.log'));
    expect(await permissiveOldC.match(u.ctx)).toBeNull();
  });
});
