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
