import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DebianKnowledge } from '../port/state/PortState.ts';
import type { Sandbox } from '../sandbox/Sandbox.ts';
import { DEBIAN_RULES_BUILD, debianRulesBuild } from './debianRulesBuild.ts';
import { type HeuristicMatch, NOTHING_PROVEN_PHASE } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const failure = { phase: 'build', command: 'cmake --build build' };

/** A context whose state has Debian's packaging kept at `packaging` (inside the test workspace). */
function withPackaging(files: Record<string, string> | null) {
  const t = heuristicContext(fixture('meson-unknown-compiler'), { failure });
  let packagingDir: string | undefined;
  if (files) {
    for (const [rel, text] of Object.entries(files)) t.src(`../packaging/${rel}`, text);
    packagingDir = join(t.workspace, 'packaging');
  }
  const debian: DebianKnowledge = {
    buildDepends: [['libfoo-dev']],
    installed: ['libfoo-dev'],
    leftOut: [],
    patchesApplied: [],
    patchesSkipped: [],
    ...(packagingDir ? { packagingDir } : {}),
  };
  // `test -e /build/src/debian` answered from the workspace, as the sandbox would
  const run = async (argv: readonly string[]) => ({
    exitCode: existsSync(join(t.workspace, 'src', String(argv[2]).replace('/build/src/', ''))) ? 0 : 1,
    stdout: '',
    stderr: '',
  });
  const sandbox = { ...t.ctx.sandbox, run } as unknown as Sandbox;
  const packaging = debian.packagingDir ? { debianPackaging: debian.packagingDir } : {};
  return {
    ...t,
    ctx: { ...t.ctx, ...packaging, sandbox, plan: { ...t.ctx.plan, packages: ['libfoo-dev'] } },
  };
}

const control =
  'Source: demo\nBuild-Depends: debhelper-compat (= 13), dh-sequence-python3, libfoo-dev, cmake\n';

describe('debian-rules-build', () => {
  it("builds with debian/rules when the upstream build fails and Debian's packaging is at hand", async () => {
    const t = withPackaging({ control, rules: '#!/usr/bin/make -f\n%:\n\tdh $@\n' });
    const match = await debianRulesBuild.match(t.ctx);
    expect(match?.key).toBe('debian/rules');
    const outcome = await debianRulesBuild.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(true);
    // the packaging tools the control file names, beside debhelper itself
    expect(t.installed).toEqual([['debhelper', 'dh-sequence-python3', 'dpkg-dev']]);
    expect(outcome.plan?.buildSystem).toBe(DEBIAN_RULES_BUILD);
    expect(outcome.plan?.packages).toEqual(['debhelper', 'dh-sequence-python3', 'dpkg-dev', 'libfoo-dev']);
    const phases = outcome.plan?.phases ?? [];
    expect(phases.map((p) => p.name)).toEqual(['build', 'test']);
    expect(phases[0]?.commands[0]).toContain('make -f debian/rules build-arch');
    expect(phases[0]?.commands[0]).toContain('nocheck');
    expect(phases[1]?.commands[0]).toContain('dh_auto_test');
    // named as rvport names a port's patches (build.sh and replay take only such names)
    expect(outcome.patches?.map((p) => p.name)).toEqual(['0001-packaging-from-debian.patch']);
    expect(outcome.patches?.[0]?.diff).toContain('+++ b/debian/rules');
  });

  it('adds riscv64 to the architectures of the packages Debian builds for a list without it', async () => {
    const restricted = `${control}\nPackage: demo\nArchitecture: amd64 arm64 i386\n\nPackage: demo-doc\nArchitecture: all\n`;
    const t = withPackaging({ control: restricted, rules: '#!/usr/bin/make -f\n%:\n\tdh $@\n' });
    const outcome = await debianRulesBuild.apply(
      t.ctx,
      (await debianRulesBuild.match(t.ctx)) as HeuristicMatch,
    );
    const diff = outcome.patches?.[0]?.diff ?? '';
    expect(diff).toContain('+Architecture: amd64 arm64 i386 riscv64\n');
    expect(diff).toContain('+Architecture: all\n');
    expect(outcome.description).toContain('riscv64 added to the architectures of demo');
    // the kept packaging itself is not changed
    expect(readFileSync(join(t.workspace, 'packaging', 'control'), 'utf8')).toBe(restricted);
  });

  it('stays out of sources without packaging, trees with a debian/ of their own, and its own plan', async () => {
    expect(await debianRulesBuild.match(withPackaging(null).ctx)).toBeNull();

    const own = withPackaging({ control, rules: 'x\n' });
    own.src('debian/control', 'Source: upstream\n');
    const match = (await debianRulesBuild.match(own.ctx)) as HeuristicMatch;
    expect((await debianRulesBuild.apply(own.ctx, match)).applied).toBe(false);

    const again = withPackaging({ control, rules: 'x\n' });
    const plan = { ...again.ctx.plan, buildSystem: DEBIAN_RULES_BUILD };
    expect(await debianRulesBuild.match({ ...again.ctx, plan })).toBeNull();

    const tests = withPackaging({ control, rules: 'x\n' });
    expect(
      await debianRulesBuild.match({ ...tests.ctx, failure: { ...tests.ctx.failure, phase: 'test' } }),
    ).toBeNull();
  });

  it("takes a build that proved nothing when Debian's packaging builds machine code, not one of Architecture: all", async () => {
    const nothing = {
      phase: NOTHING_PROVEN_PHASE,
      command: '',
      output: 'no ELF file among the build outputs',
      exitCode: 0,
      timedOut: false,
    };
    const rules = '#!/usr/bin/make -f\n%:\n\tdh $@\n';
    const arch = withPackaging({
      control: `${control}\nPackage: libdemo1\nArchitecture: any\nDescription: d\n`,
      rules,
    });
    const match = await debianRulesBuild.match({ ...arch.ctx, failure: nothing });
    expect(match?.key).toBe('debian/rules');
    expect(match?.reason).toContain('proved no riscv64 output (no ELF file among the build outputs)');
    expect(match?.reason).toContain('libdemo1');
    const outcome = await debianRulesBuild.apply({ ...arch.ctx, failure: nothing }, match as HeuristicMatch);
    expect(outcome.plan?.buildSystem).toBe(DEBIAN_RULES_BUILD);

    const data = withPackaging({
      control: `${control}\nPackage: demo-data\nArchitecture: all\nDescription: d\n`,
      rules,
    });
    expect(await debianRulesBuild.match({ ...data.ctx, failure: nothing })).toBeNull();
  });

  it('needs a usable debian/rules', async () => {
    const t = withPackaging({ control });
    const outcome = await debianRulesBuild.apply(
      t.ctx,
      (await debianRulesBuild.match(t.ctx)) as HeuristicMatch,
    );
    expect(outcome.applied).toBe(false);
    expect(outcome.description).toContain('debian/rules');
  });
});
