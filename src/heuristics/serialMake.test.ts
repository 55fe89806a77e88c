import { afterEach, describe, expect, it } from 'vitest';
import { recoveryHeuristics } from './index.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { runHeuristics } from './runHeuristics.ts';
import { racedTarget, serialMake } from './serialMake.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const build = { phase: 'build', command: 'make -j"$(nproc)"', exitCode: 2 };
const noRule = (target: string, by = 'prog') =>
  `make[2]: *** No rule to make target '${target}', needed by '${by}'.  Stop.\nmake[2]: *** Waiting for unfinished jobs....\n`;

describe('retry-with-one-job for a target the build makes elsewhere', () => {
  it("runs vde2's parallel make again with one job: libvdemgmt.la under a relative path, built beside", async () => {
    const t = heuristicContext(fixture('make-race-relative-target'), { failure: build });
    const match = await serialMake.match(t.ctx);
    expect(match?.reason).toBe(
      'another part of the parallel build makes ../../src/lib/libvdemgmt.la, which it needed first',
    );
    const outcome = await serialMake.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases[1]?.commands).toEqual(['make -j1']);
    // no heuristic before it claims the failure
    expect(await runHeuristics(recoveryHeuristics, t.ctx, {})).toMatchObject({
      heuristic: 'retry-with-one-job',
      outcome: { applied: true },
    });
  });

  it('counts a build product of the tree, and a name or stem the output shows being built', () => {
    expect(racedTarget(noRule('../common/libcommon.a'), '/build/src')).toBe('../common/libcommon.a');
    expect(racedTarget(noRule('/build/src/lib/libx.la'), '/build/src')).toBe('/build/src/lib/libx.la');
    // a program another folder's link writes (`-o ../bin/tool`)
    const linked = `cc -o ../bin/tool tool.o\n${noRule('../bin/tool', 'all-am')}`;
    expect(racedTarget(linked, '/build/src')).toBe('../bin/tool');
    // a source file only when a generator writes that very file
    expect(racedTarget(`  GEN      version.h\n${noRule('../include/version.h', 'x.o')}`, '/build/src')).toBe(
      '../include/version.h',
    );
  });

  it('leaves genuinely missing files alone', async () => {
    const missing = [
      // a source of the tree, however much of its stem is built
      `  CC       foo.lo\n${noRule('../lib/foo.c', 'foo.lo')}`,
      // outside the tree
      noRule('/usr/lib/riscv64-linux-gnu/libfoo.a'),
      // nothing shows it built
      noRule('../data/table.dat', 'all-am'),
      fixture('doc-target-missing'),
    ];
    for (const output of missing) {
      const t = heuristicContext(output, { failure: build });
      expect(await serialMake.match(t.ctx), output).toBeNull();
    }
    // and a build that ran with one job already
    const serial = heuristicContext(fixture('make-race-relative-target'), {
      failure: { ...build, command: 'make -j1' },
    });
    expect(await serialMake.match(serial.ctx)).toBeNull();
  });
});
