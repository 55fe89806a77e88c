import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildPlan } from '../plan/index.ts';
import { gitVersionFallback } from './gitVersionFallback.ts';
import { recoveryHeuristics } from './index.ts';
import type { HeuristicMatch } from './RecoveryHeuristic.ts';
import { autotoolsPlan, fixture, heuristicContext, removeWorkspaces } from './testing/heuristicContext.ts';

afterEach(removeWorkspaces);

const cmakePlan: BuildPlan = {
  ...autotoolsPlan,
  buildSystem: 'cmake',
  phases: [{ name: 'configure', commands: ['cmake -S . -B build'] }],
};
/** The captured project: its version is `git describe --tags`, and it stops without one. */
const DESCRIBING_CMAKE =
  // biome-ignore lint/suspicious/noTemplateCurlyInString: CMake's own ${VAR} syntax
  'cmake_minimum_required(VERSION 3.14)\nexecute_process(COMMAND git describe --tags --abbrev=0 OUTPUT_VARIABLE V OUTPUT_STRIP_TRAILING_WHITESPACE)\nif(NOT V)\n  message(FATAL_ERROR "Cannot determine version number from git")\nendif()\nproject(demo VERSION ${V} LANGUAGES C)\n';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@localhost', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();

/** A real checkout like the git corpus's: one parentless commit, no tag. */
function snapshot(t: ReturnType<typeof heuristicContext>): string {
  const dir = join(t.workspace, 'src');
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'snapshot');
  return dir;
}

const runPrepare = (plan: BuildPlan | undefined, src: string) =>
  execFileSync('sh', ['-c', plan?.phases.find((p) => p.name === 'prepare')?.commands.join('\n') ?? 'false'], {
    env: { ...process.env, RVPORT_SRC: src },
    stdio: 'pipe',
  });

describe('git-version-fallback', () => {
  it('tags the snapshot so git describe answers (captured from the sandbox), and the tag is real', async () => {
    const t = heuristicContext(fixture('git-describe-no-tags'), {
      plan: cmakePlan,
      failure: { command: 'cmake -S . -B build' },
    });
    t.src('CMakeLists.txt', DESCRIBING_CMAKE);
    const dir = snapshot(t);
    expect(() => git(dir, 'describe', '--tags')).toThrow(/No names found/);
    const match = await gitVersionFallback.match(t.ctx);
    expect(match?.key).toBe('tag 0.0.0');
    expect(match?.reason).toMatch(
      /no tag in this snapshot; version 0\.0\.0 \(no version recorded anywhere\)/,
    );
    const outcome = await gitVersionFallback.apply(t.ctx, match as HeuristicMatch);
    expect(outcome.plan?.phases[0]?.name).toBe('prepare');
    expect(outcome.plan?.phases[1]?.commands).toEqual(['cmake -S . -B build']);
    runPrepare(outcome.plan, dir);
    expect(git(dir, 'describe')).toBe('v0.0.0');
    expect(git(dir, 'describe', '--tags', '--abbrev=0')).toBe('v0.0.0');
    // a fresh copy of the source gets the tag again: the command may run twice
    runPrepare(outcome.plan, dir);
  });

  it("takes the version from the tree's version file, then from the build files, then from Debian", async () => {
    const t = heuristicContext(fixture('git-describe-no-tags'), { plan: cmakePlan });
    t.src(
      'CMakeLists.txt',
      DESCRIBING_CMAKE.replace(/project\(demo VERSION \S+/, 'project(demo VERSION 2.5.1'),
    );
    snapshot(t);
    expect((await gitVersionFallback.match(t.ctx))?.key).toBe('tag 2.5.1');
    t.src('VERSION', 'v3.1.0-rc1\n');
    expect((await gitVersionFallback.match(t.ctx))?.key).toBe('tag 3.1.0-rc1');
    const debian = heuristicContext(fixture('git-describe-no-tags'), { plan: cmakePlan });
    debian.src('CMakeLists.txt', DESCRIBING_CMAKE);
    snapshot(debian);
    const ctx = {
      ...debian.ctx,
      source: { spec: 'debian:demo=1:4.2.0-3' },
    };
    expect((await gitVersionFallback.match(ctx))?.key).toBe('tag 4.2.0');
  });

  it('never puts what a hostile version file says into the command', async () => {
    const t = heuristicContext(fixture('git-describe-no-tags'), { plan: cmakePlan });
    t.src('CMakeLists.txt', DESCRIBING_CMAKE);
    const canary = join(t.workspace, 'canary');
    t.src('.tarball-version', `1.0'; touch ${canary}; '\n`);
    t.src('version.txt', '1.0 $(id)\n');
    const dir = snapshot(t);
    const match = await gitVersionFallback.match(t.ctx);
    expect(match?.key).toBe('tag 0.0.0');
    const outcome = await gitVersionFallback.apply(t.ctx, match as HeuristicMatch);
    runPrepare(outcome.plan, dir);
    expect(git(dir, 'tag')).toBe('v0.0.0');
    expect(existsSync(canary)).toBe(false);
  });

  it('writes the .tarball-version git-version-gen reads when the tree has no git metadata', async () => {
    const output = `${fixture('git-describe-no-tags').replace('No names found, cannot describe anything.', 'not a git repository (or any of the parent directories): .git')}`;
    const t = heuristicContext(output, { plan: { ...autotoolsPlan, dir: 'lib' } });
    t.src('lib/configure.ac', 'AC_INIT([demo], [1.8.0])\n');
    // git-version-gen is only known from the tree: without it a tree without .git is left alone
    expect(await gitVersionFallback.match(t.ctx)).toBeNull();
    t.src('lib/build-aux/git-version-gen', '#!/bin/sh\n');
    const match = await gitVersionFallback.match(t.ctx);
    expect(match?.key).toBe('tarball-version 1.8.0');
    const outcome = await gitVersionFallback.apply(t.ctx, match as HeuristicMatch);
    runPrepare(outcome.plan, join(t.workspace, 'src'));
    expect(readFileSync(join(t.workspace, 'src/lib/.tarball-version'), 'utf8')).toBe('1.8.0\n');
  });

  it('leaves a describe message alone when the build did not stop for its version', async () => {
    const t = heuristicContext(
      `fatal: No names found, cannot describe anything.\n${fixture('missing-header')}`,
      {
        plan: cmakePlan,
      },
    );
    t.src('CMakeLists.txt', 'project(demo C)\n');
    snapshot(t);
    expect(await gitVersionFallback.match(t.ctx)).toBeNull();
  });

  it('comes before the CMake project-message heuristic', () => {
    const names = recoveryHeuristics.map((h) => h.name);
    expect(names.indexOf('git-version-fallback')).toBeLessThan(names.indexOf('cmake-project-message'));
  });
});
