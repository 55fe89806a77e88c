import { afterEach, describe, expect, it } from 'vitest';
import { enableMaintainerMode } from './enableMaintainerMode.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const SETUP = 'meson setup build --prefix=/usr --buildtype=release --wrap-mode=nodownload';
const plan = {
  buildSystem: 'meson',
  dir: '.',
  phases: [
    { name: 'configure' as const, commands: [SETUP] },
    { name: 'build' as const, commands: ['meson compile -C build'] },
  ],
  packages: [],
  expectedArtifacts: [],
  origin: 'default' as const,
};

// atkmm1.6 2.28.4 (Debian trixie), its meson_options.txt as released
const OPTIONS = `option('maintainer-mode', type: 'combo', choices: ['false', 'if-git-build', 'true'],
  value: 'if-git-build', description: 'Generate source code from .hg and .ccg files')
option('warnings', type: 'combo', choices: ['no', 'min', 'max', 'fatal'], value: 'min',
  description: 'Compiler warning level')
option('dist-warnings', type: 'combo', choices: ['no', 'min', 'max', 'fatal'], value: 'fatal',
  description: 'Compiler warning level when a tarball is created')
option('build-deprecated-api', type: 'boolean', value: true,
  description: 'Build deprecated API and include it in the library')
option('build-documentation', type: 'combo', choices: ['false', 'if-maintainer-mode', 'true'],
  value: 'if-maintainer-mode', description: 'Build and install the documentation')
option('msvc14x-parallel-installable', type: 'boolean', value: true,
  description: 'Use separate DLL and LIB filenames for Visual Studio 2015, 2017 and 2019')
`;

function atkmm(options: string | null) {
  const t = heuristicContext(fixture('meson-maintainer-mode'), {
    plan,
    failure: { phase: 'configure', command: SETUP, exitCode: 1 },
  });
  if (options !== null) t.src('meson_options.txt', options);
  return t;
}

describe('enable-maintainer-mode', () => {
  it('sets meson up in maintainer mode, without the documentation that follows it, when the project asks', async () => {
    const t = atkmm(OPTIONS);
    const match = (await enableMaintainerMode.match(t.ctx)) as HeuristicMatch;
    expect(match.key).toBe('meson:maintainer-mode');
    const outcome = await enableMaintainerMode.apply(t.ctx, match);
    expect(outcome.applied).toBe(true);
    expect(outcome.plan?.phases[0]?.commands).toEqual([
      `${SETUP} -Dmaintainer-mode=true -Dbuild-documentation=false`,
    ]);
    expect(outcome.plan?.phases[1]?.commands).toEqual(['meson compile -C build']);
  });

  it('leaves the documentation option alone when it does not follow maintainer mode', async () => {
    const t = atkmm("option('maintainer-mode', type: 'boolean', value: false)\n");
    const outcome = await enableMaintainerMode.apply(
      t.ctx,
      (await enableMaintainerMode.match(t.ctx)) as HeuristicMatch,
    );
    expect(outcome.plan?.phases[0]?.commands).toEqual([`${SETUP} -Dmaintainer-mode=true`]);
  });

  it('stays out of a project without the option, and of other failures', async () => {
    expect(await enableMaintainerMode.match(atkmm(null).ctx)).toBeNull();
    expect(
      await enableMaintainerMode.match(atkmm("option('docs', type: 'boolean', value: false)\n").ctx),
    ).toBeNull();
    const other = atkmm(OPTIONS);
    other.ctx.failure = {
      ...other.ctx.failure,
      output: 'meson.build:1:0: ERROR: Dependency "atk" not found',
    };
    expect(await enableMaintainerMode.match(other.ctx)).toBeNull();
  });
});
