import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoveryHeuristics } from '../../../heuristics/index.ts';
import type { RecoveryHeuristic } from '../../../heuristics/RecoveryHeuristic.ts';
import { canonicalPatch } from '../../patches/sourcePatches.ts';
import type { BuildPlan, PortState } from '../../state/PortState.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../../testing/fakePortServices.ts';
import { portState } from '../../testing/portStateFixture.ts';
import { buildNode, buildProgress } from './build.ts';

const before: BuildPlan = {
  buildSystem: 'autotools',
  dir: '.',
  phases: [
    { name: 'configure', commands: ['./configure'] },
    { name: 'build', commands: ['make'] },
  ],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};
const withFix: BuildPlan = { ...before, env: { CFLAGS: '-O1' } };

/** A state in which an LLM fix (a patch and an environment variable) is on trial after a make failure. */
async function stateWithFixOnTrial(): Promise<PortState> {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-build-src-'));
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib', 'str.c'), 'int a;\nstatic int strnlen(const char *s, int n);\n');
  const patch = await canonicalPatch(
    dir,
    [],
    '--- a/lib/str.c\n+++ b/lib/str.c\n@@ -2 +2 @@\n-static int strnlen(const char *s, int n);\n+static int own_strnlen(const char *s, int n);\n',
    tmpdir(),
  );
  if ('error' in patch) throw new Error(patch.error);
  return portState({
    source: { spec: dir, name: 'demo', dir },
    plan: withFix,
    attemptCount: 1,
    buildStatus: 'FIXING',
    patches: [{ name: '0001-rename.patch', diff: patch.diff }],
    fixAttempts: [
      {
        at: '',
        attempt: 1,
        source: 'llm',
        name: 'rename',
        description: 'd',
        patch: '0001-rename.patch',
        outcome: 'applied',
      },
    ],
    fixUnderTrial: {
      fixIndex: 0,
      baselineProgress: buildProgress('build', 0),
      planBefore: before,
      patchesBefore: [],
      snapshot: { id: 'snap-1', createdAt: '' },
    },
  });
}

describe('build node and an LLM fix on trial', () => {
  it('builds from a fresh copy with the patches applied', async () => {
    const sandbox = new FakeSandbox();
    const update = await runPortNode(buildNode, await stateWithFixOnTrial(), fakePortServices(sandbox));
    expect(update.buildStatus).toBe('SUCCESS');
    expect(update.fixUnderTrial).toBeNull();
    expect(readFileSync(join(sandbox.workspace, 'src', 'lib', 'str.c'), 'utf8')).toContain('own_strnlen');
  });

  it('rolls the fix back when the build now fails earlier than before it', async () => {
    const sandbox = new FakeSandbox((c) => ({
      exitCode: c === './configure' ? 1 : 0,
      stderr: 'configure: error: x',
    }));
    const update = await runPortNode(buildNode, await stateWithFixOnTrial(), fakePortServices(sandbox));
    expect(update.buildStatus).toBe('FAILED');
    expect(update.errors?.at(-1)?.progress).toBe(buildProgress('configure', 0));
    expect(update.plan).toEqual(before);
    expect(update.patches).toEqual([]);
    expect(update.fixAttempts?.[0]?.outcome).toBe('rolled-back');
    expect(update.fixUnderTrial).toBeNull();
    expect(sandbox.rollbacks).toEqual(['snap-1']);
  });

  it('keeps the fix when the build fails no earlier (at the same make)', async () => {
    const sandbox = new FakeSandbox((c) => ({
      exitCode: c === 'make' ? 2 : 0,
      stderr: 'main.c:1: error: y',
    }));
    const state = await stateWithFixOnTrial();
    const update = await runPortNode(buildNode, state, fakePortServices(sandbox));
    expect(update.buildStatus).toBe('FAILED');
    expect(update.plan).toEqual(withFix);
    expect(update.patches ?? state.patches).toHaveLength(1);
    expect(update.fixAttempts?.[0]?.outcome).toBe('applied');
    expect(update.fixUnderTrial).toBeNull();
    expect(sandbox.rollbacks).toEqual([]);
  });

  it('never judges a fix that answered a failure without a build position (verification)', async () => {
    const sandbox = new FakeSandbox((c) => ({
      exitCode: c === './configure' ? 1 : 0,
      stderr: 'configure: error: x',
    }));
    const state = await stateWithFixOnTrial();
    const trial = state.fixUnderTrial;
    if (!trial) throw new Error('no fix on trial');
    // The state goes through JSON at every checkpoint: the baseline must survive it.
    const saved = JSON.parse(
      JSON.stringify({ ...state, fixUnderTrial: { ...trial, baselineProgress: null } }),
    );
    const update = await runPortNode(buildNode, saved, fakePortServices(sandbox));
    expect(update.plan).toEqual(withFix);
    expect(update.fixAttempts?.[0]?.outcome).toBe('applied');
    expect(sandbox.rollbacks).toEqual([]);
  });
});

describe('build node repairs', () => {
  it('runs the repaired plan on a fresh copy of the source: a failed run leaves nothing in the result', async () => {
    let makes = 0;
    const sandbox: FakeSandbox = new FakeSandbox((c) => {
      if (c !== 'make') return { exitCode: 0 };
      makes++;
      // the failed run builds one program before it stops
      if (makes === 1) writeFileSync(join(sandbox.workspace, 'src', 'leftover-program'), 'ELF');
      return makes === 1 ? { exitCode: 2, stderr: 'png2theora.c:1: error: png_sizeof' } : { exitCode: 0 };
    });
    const repair: RecoveryHeuristic = {
      name: 'test-repair',
      description: 'adds a configure switch',
      match: (ctx) => (/png_sizeof/.test(ctx.failure.output) ? { key: 'x', reason: 'png_sizeof' } : null),
      apply: async (ctx) => ({
        applied: true,
        description: 'configure with --disable-examples',
        commands: [],
        plan: {
          ...ctx.plan,
          phases: ctx.plan.phases.map((p) =>
            p.name === 'configure' ? { ...p, commands: ['./configure --disable-examples'] } : p,
          ),
        },
      }),
    };
    const dir = mkdtempSync(join(tmpdir(), 'rvport-build-src-'));
    writeFileSync(join(dir, 'configure'), '#!/bin/sh\n');
    const state = portState({
      source: { spec: dir, name: 'demo', dir },
      plan: before,
      buildStatus: 'BUILDING',
    });
    const update = await runPortNode(buildNode, state, fakePortServices(sandbox, { heuristics: [repair] }));
    expect(update.buildStatus).toBe('SUCCESS');
    // each run starts from a fresh copy: the old install tree is cleared inside the sandbox
    expect(sandbox.commands).toEqual([
      'rm -rf -- /build/dest',
      './configure',
      'make',
      'rm -rf -- /build/dest',
      './configure --disable-examples',
      'make',
    ]);
    expect(existsSync(join(sandbox.workspace, 'src', 'leftover-program'))).toBe(false);
    expect(existsSync(join(sandbox.workspace, 'src', 'configure'))).toBe(true);
  });
});

describe('build node and a repair that adds a patch', () => {
  it('applies the patch to the fresh copy the repaired plan runs on, and keeps it in the state', async () => {
    let makes = 0;
    const sandbox: FakeSandbox = new FakeSandbox((c) => {
      if (c !== 'make') return { exitCode: 0 };
      makes++;
      return makes === 1 ? { exitCode: 2, stderr: 'make: *** No rule to make target' } : { exitCode: 0 };
    });
    const dir = mkdtempSync(join(tmpdir(), 'rvport-build-src-'));
    writeFileSync(join(dir, 'configure'), '#!/bin/sh\n');
    const added = '--- /dev/null\n+++ b/debian/rules\n@@ -0,0 +1 @@\n+build-arch:\n';
    const diff = `diff --git a/debian/rules b/debian/rules\nnew file mode 100755\n${added}`;
    const repair: RecoveryHeuristic = {
      name: 'test-repair',
      description: 'adds a file',
      match: (ctx) => (/No rule/.test(ctx.failure.output) ? { key: 'x', reason: 'no rule' } : null),
      apply: async () => ({
        applied: true,
        description: 'add debian/rules',
        commands: [],
        patches: [{ name: '0001-packaging-from-debian.patch', diff }],
      }),
    };
    const state = portState({
      source: { spec: dir, name: 'demo', dir },
      plan: before,
      buildStatus: 'BUILDING',
    });
    const update = await runPortNode(buildNode, state, fakePortServices(sandbox, { heuristics: [repair] }));
    expect(update.buildStatus).toBe('SUCCESS');
    expect(readFileSync(join(sandbox.workspace, 'src', 'debian', 'rules'), 'utf8')).toBe('build-arch:\n');
    expect(update.patches?.map((p) => p.name)).toEqual(['0001-packaging-from-debian.patch']);
  });
});

describe('build node and a dependency configure names in its own words', () => {
  it('installs the optional dependency the analysis had resolved, then builds', async () => {
    // hesiod 3.2.1's configure without libidn (real output)
    const configureOutput = readFileSync(
      new URL('../../../heuristics/fixtures/configure-library-not-found.txt', import.meta.url),
      'utf8',
    );
    let installed = false;
    const sandbox = new FakeSandbox((c) => {
      if (c.startsWith('apt-get install')) installed ||= c.includes('libidn-dev');
      if (c === './configure' && !installed) return { exitCode: 1, stdout: configureOutput };
      return { exitCode: 0 };
    });
    const dir = mkdtempSync(join(tmpdir(), 'rvport-build-src-'));
    writeFileSync(join(dir, 'configure.ac'), 'AC_INIT([hesiod], [3.2.1])\n');
    const state = portState({
      source: { spec: dir, name: 'hesiod', dir },
      plan: before,
      scripted: {
        dependencies: [
          {
            kind: 'library',
            name: 'idn',
            file: 'configure.ac',
            line: 36,
            required: false,
            debianPackages: ['libidn-dev'],
            resolvedBy: 'contents',
          },
        ],
      },
    });
    const update = await runPortNode(
      buildNode,
      state,
      fakePortServices(sandbox, { heuristics: recoveryHeuristics }),
    );
    expect(update.buildStatus).toBe('SUCCESS');
    expect(update.plan?.packages).toEqual(['libidn-dev']);
    expect(update.fixAttempts?.at(-1)).toMatchObject({
      source: 'heuristic',
      name: 'configure-missing-dependency',
      outcome: 'applied',
    });
    expect(sandbox.commands.filter((c) => c === './configure')).toHaveLength(2);
  });
});

describe('build node and a submodule the checkout has no content of', () => {
  it("records mbedtls's configure error as an unavailable source naming the submodule (real output)", async () => {
    const configureOutput = readFileSync(
      new URL('../../../heuristics/fixtures/cmake-submodule-missing.txt', import.meta.url),
      'utf8',
    );
    const cmake: BuildPlan = {
      ...before,
      buildSystem: 'cmake',
      phases: [{ name: 'configure', commands: ['cmake -S . -B build'] }],
    };
    const sandbox = new FakeSandbox((c) =>
      c.startsWith('cmake') ? { exitCode: 1, stdout: configureOutput } : { exitCode: 0 },
    );
    const dir = mkdtempSync(join(tmpdir(), 'rvport-build-src-'));
    writeFileSync(
      join(dir, '.gitmodules'),
      '[submodule "framework"]\n\tpath = framework\n\turl = https://github.com/Mbed-TLS/mbedtls-framework\n',
    );
    writeFileSync(join(dir, 'CMakeLists.txt'), 'add_subdirectory(framework)\n');
    mkdirSync(join(dir, 'framework'));
    const state = portState({ source: { spec: dir, name: 'mbedtls', dir }, plan: cmake });
    const update = await runPortNode(
      buildNode,
      state,
      fakePortServices(sandbox, { heuristics: recoveryHeuristics }),
    );
    // code the checkout lacks is no fixer's to write: the port escalates without one
    expect(update.buildStatus).toBe('ESCALATED');
    expect(update.escalationReason).toMatch(
      /^a fundamental blocker \(SOURCE_UNAVAILABLE\): the submodule `framework`/,
    );
    const error = update.errors?.at(-1);
    expect(error?.category).toBe('SOURCE_UNAVAILABLE');
    expect(error?.evidence).toBe(
      'the submodule `framework` (https://github.com/Mbed-TLS/mbedtls-framework) has no content in this checkout',
    );
    expect(error?.signature).toMatch(/^SOURCE_UNAVAILABLE: /);
    expect(update.fixAttempts?.at(-1)).toMatchObject({ name: 'absent-submodule', outcome: 'failed' });
    // with the content there, the same output is the configuration error CMake reported
    writeFileSync(join(dir, 'framework', 'CMakeLists.txt'), 'project(framework)\n');
    const again = await runPortNode(
      buildNode,
      state,
      fakePortServices(
        new FakeSandbox((c) =>
          c.startsWith('cmake') ? { exitCode: 1, stdout: configureOutput } : { exitCode: 0 },
        ),
        { heuristics: [] },
      ),
    );
    expect(again.errors?.at(-1)?.category).toBe('CONFIGURATION');
  });
});
