import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { absentSubmodule } from '../../src/heuristics/absentSubmodule.ts';
import { gitVersionFallback } from '../../src/heuristics/gitVersionFallback.ts';
import type { HeuristicMatch } from '../../src/heuristics/RecoveryHeuristic.ts';
import {
  autotoolsPlan,
  fixture,
  heuristicContext,
  removeWorkspaces,
} from '../../src/heuristics/testing/heuristicContext.ts';
import { makeError } from '../../src/port/graph/nodes/recordError.ts';
import type { BuildPlan } from '../../src/port/state/PortState.ts';
import { recommendation } from '../../src/port/steps/recommendation.ts';
import { portState } from '../../src/port/testing/portStateFixture.ts';

afterEach(removeWorkspaces);

const cmakePlan: BuildPlan = {
  ...autotoolsPlan,
  buildSystem: 'cmake',
  phases: [{ name: 'configure', commands: ['cmake -S . -B build'] }],
};

/**
 * What a checkout says about itself (.gitmodules, version files, its git metadata) is the
 * repository's: a submodule path must not lead out of the tree, a URL must not carry markup or
 * commands into the report, a version must not carry a command into the plan.
 */
describe('a hostile checkout and the heuristics that read its metadata', () => {
  it('follows no .gitmodules path or link out of the tree and puts no hostile URL in the report', async () => {
    const t = heuristicContext(fixture('cmake-submodule-missing'), { plan: cmakePlan });
    const outside = join(t.workspace, 'outside');
    mkdirSync(outside);
    // `framework` points out of the tree; the real `../outside` would be an empty folder
    symlinkSync(outside, join(t.workspace, 'src', 'framework'));
    t.src(
      '.gitmodules',
      '[submodule "a"]\n\tpath = ../outside\n\turl = https://example.invalid/a\n[submodule "b"]\n\tpath = framework\n\turl = "https://x.invalid/`$(touch pwned)`\n## Injected"\n',
    );
    const match = await absentSubmodule.match(t.ctx);
    // the link counts as a folder without content: named by its path, with no URL
    expect(match?.reason).toBe('the submodule `framework` has no content in this checkout');
    const outcome = await absentSubmodule.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.applied).toBe(false);
    expect(outcome.commands).toEqual([]);

    const state = portState({
      source: { spec: join(t.workspace, 'src'), name: 'x', dir: join(t.workspace, 'src') },
      errors: [makeError({ node: 'build', output: fixture('cmake-submodule-missing') })],
    });
    const text = recommendation(state);
    expect(text).toContain('`framework`');
    expect(text).not.toMatch(/outside|Injected|touch pwned|example\.invalid/);
    expect(existsSync(join(t.workspace, 'src', 'pwned'))).toBe(false);
  });

  it("puts no command a version file or CMakeLists.txt carries into the tag it makes, and the tag is git's", async () => {
    const t = heuristicContext(fixture('git-describe-no-tags'), { plan: cmakePlan });
    const canary = join(t.workspace, 'canary');
    t.src('.tarball-version', `1.0$(touch ${canary})\n`);
    t.src('VERSION', `2.0\`touch ${canary}\`\n`);
    t.src('CMakeLists.txt', `project(x VERSION 3.0;touch${canary})\n`);
    // a .version that is a link to a host file with a plausible version is not read
    const hostVersion = join(t.workspace, 'host-version');
    writeFileSync(hostVersion, '9.9.9\n');
    symlinkSync(hostVersion, join(t.workspace, 'src', '.version'));
    const src = join(t.workspace, 'src');
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@localhost', ...args], {
        cwd: src,
        encoding: 'utf8',
      }).trim();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'snapshot');
    const match = await gitVersionFallback.match(t.ctx);
    // only the plain version CMakeLists.txt declares is taken, not what follows it
    expect(match?.key).toBe('tag 3.0');
    const outcome = await gitVersionFallback.apply(t.ctx, match as HeuristicMatch);
    const commands = outcome.plan?.phases.find((p) => p.name === 'prepare')?.commands ?? [];
    execFileSync('sh', ['-c', commands.join('\n')], { env: { ...process.env, RVPORT_SRC: src } });
    expect(git('describe')).toBe('v3.0');
    expect(existsSync(canary)).toBe(false);
    expect(readFileSync(hostVersion, 'utf8')).toBe('9.9.9\n');
  });
});
