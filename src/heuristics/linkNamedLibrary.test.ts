import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import { linkNamedLibrary } from './linkNamedLibrary.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const makePlan: BuildPlan = {
  buildSystem: 'make',
  dir: '.',
  phases: [{ name: 'build', commands: ['make -f Makefile.linux -j"$(nproc)"'] }],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

const MAKEFILE = [
  'OBJECTS=auxi.o easychem.o',
  'all: easychem',
  '',
  'easychem: $(OBJECTS)',
  '\t$(CC) -o easychem $(OBJECTS) $(GTK_LIBS) $(C_FLAGS)',
  '\tstrip easychem',
].join('\n');

describe('link-named-library', () => {
  it('names libm on the link: in LDFLAGS and LIBS first, then on the recipe line make reports', async () => {
    // the real failure had the rule at line 31; this Makefile has it at line 5
    const output = fixture('dso-missing-libm').replace('Makefile.linux:31:', 'Makefile.linux:5:');
    const t = heuristicContext(output, { plan: makePlan, failure: { phase: 'build' } });
    t.src('Makefile.linux', MAKEFILE);
    const first = linkNamedLibrary.match(t.ctx) as HeuristicMatch;
    expect(first).toEqual({ key: 'env:m', reason: 'the link uses libm without naming it (-lm)' });
    const env = await linkNamedLibrary.apply(t.ctx, first);
    expect(env).toMatchObject({ applied: true, plan: { env: { LDFLAGS: '-lm', LIBS: '-lm' } } });

    // the same failure with -lm in LIBS: this Makefile's link reads neither variable
    const again = { ...t.ctx, plan: env.plan as BuildPlan };
    const second = linkNamedLibrary.match(again) as HeuristicMatch;
    expect(second.key).toBe('rule:m:Makefile.linux:5');
    const rule = await linkNamedLibrary.apply(again, second);
    expect(rule).toMatchObject({
      applied: true,
      description: 'link with -lm on the recipe line Makefile.linux:5',
    });
    const command = rule.plan?.phases.find((p) => p.name === 'build')?.commands[0] ?? '';
    // the command really edits that line, and only once however often the build phase runs
    const src = join(t.workspace, 'src');
    for (let i = 0; i < 2; i++)
      execFileSync('sh', ['-c', command], { env: { ...process.env, RVPORT_SRC: src } });
    expect(readFileSync(join(src, 'Makefile.linux'), 'utf8').split('\n')[4]).toBe(
      '\t$(CC) -o easychem $(OBJECTS) $(GTK_LIBS) $(C_FLAGS) -lm',
    );
  });

  it('finds the Makefile in the folder that make level entered, and leaves a line that is not a link alone', async () => {
    const output = [
      "make[1]: Entering directory '/build/src/src'",
      'cc -c -o a.o a.c',
      '/usr/bin/ld: /lib/riscv64-linux-gnu/libstdc++.so.6: error adding symbols: DSO missing from command line',
      'make[1]: *** [makefile:2: prog] Error 1',
      "make[1]: Leaving directory '/build/src/src'",
    ].join('\n');
    const plan = { ...makePlan, env: { LIBS: '-lstdc++' } };
    const t = heuristicContext(output, { plan, failure: { phase: 'build' } });
    t.src('src/makefile', 'prog: a.o\n\tcc -c a.c\n');
    const match = linkNamedLibrary.match(t.ctx) as HeuristicMatch;
    expect(match.key).toBe('rule:stdc++:src/makefile:2');
    expect(await linkNamedLibrary.apply(t.ctx, match)).toMatchObject({ applied: false });
  });

  it('does not fire on other link failures', () => {
    for (const name of ['missing-library', 'atomic-16', 'multiple-definition']) {
      const t = heuristicContext(fixture(name), { failure: { phase: 'build', command: 'make' } });
      expect(linkNamedLibrary.match(t.ctx), name).toBeNull();
    }
  });
});
