import { afterEach, describe, expect, it } from 'vitest';
import { analyzeTree } from '../analysis/analyzeTree.ts';
import { planFromAnalysis } from '../port/steps/planFromAnalysis.ts';
import { portState } from '../port/testing/portStateFixture.ts';
import { otherBuildSystem } from './otherBuildSystem.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

/** A context whose state holds the real scripted analysis of a tree written into the workspace. */
function twoSystems(files: Record<string, string>, failure: { phase: string; command: string }) {
  const t = heuristicContext(fixture('meson-unknown-compiler'), { failure });
  for (const [rel, text] of Object.entries(files)) t.src(rel, text);
  const { findings: _f, ...scripted } = analyzeTree(`${t.workspace}/src`, { name: 'demo' });
  const plan = planFromAnalysis({ ...portState(), scripted }, 'default');
  if (!plan) throw new Error('no plan');
  return {
    ...t,
    ctx: {
      ...t.ctx,
      analysis: scripted,
      plan: { ...plan, packages: ['libfoo-dev'], env: { CFLAGS: '-O1' } },
    },
  };
}

const tree = {
  'meson.build': "project('demo', 'c')\nexecutable('demo', 'demo.c')\n",
  'configure.ac': 'AC_INIT([demo], [1.0])\nAM_INIT_AUTOMAKE\nAC_PROG_CC\nAC_OUTPUT([Makefile])\n',
  'Makefile.am': 'bin_PROGRAMS = demo\n',
  'demo.c': 'int main(void) { return 0; }\n',
};

describe('other-build-system', () => {
  it("tries the tree's other build system once the chosen one fails to configure", async () => {
    const t = twoSystems(tree, { phase: 'configure', command: 'meson setup build' });
    const chosen = t.ctx.plan.buildSystem;
    const other = chosen === 'meson' ? 'autotools' : 'meson';
    const match = await otherBuildSystem.match(t.ctx);
    expect(match?.key).toBe(`${other}:.`);
    expect(match?.reason).toContain(`the tree also has ${other}`);
    const outcome = await otherBuildSystem.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(true);
    expect(outcome.plan).toMatchObject({
      buildSystem: other,
      packages: ['libfoo-dev'],
      env: { CFLAGS: '-O1' },
    });
    const commands = outcome.plan?.phases.flatMap((p) => p.commands).join('\n') ?? '';
    expect(commands).toMatch(other === 'meson' ? /meson setup/ : /\.\/configure/);
  });

  it("does not go back to the tree's build systems once Debian's own build failed", async () => {
    const t = twoSystems(tree, { phase: 'configure', command: 'make -f debian/rules build-arch' });
    const ctx = { ...t.ctx, plan: { ...t.ctx.plan, buildSystem: 'debian-rules' } };
    expect(await otherBuildSystem.match(ctx)).toBeNull();
  });

  it('does nothing for a tree with one build system, for tests and installs, or on a timeout', async () => {
    const single = twoSystems(
      { 'meson.build': "project('demo', 'c')\n" },
      { phase: 'configure', command: 'meson' },
    );
    expect(await otherBuildSystem.match(single.ctx)).toBeNull();
    const t = twoSystems(tree, { phase: 'test', command: 'make check' });
    expect(await otherBuildSystem.match(t.ctx)).toBeNull();
    const timedOut = { ...t.ctx, failure: { ...t.ctx.failure, phase: 'build', timedOut: true } };
    expect(await otherBuildSystem.match(timedOut)).toBeNull();
  });
});
