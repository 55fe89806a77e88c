import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BuildPlan } from '../state/PortState.ts';
import { FakeSandbox } from '../testing/fakePortServices.ts';
import { runPackageTests } from './runPackageTests.ts';

const plan: BuildPlan = {
  buildSystem: 'autotools',
  dir: '.',
  phases: [{ name: 'test', commands: ['make check'], optional: true }],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

/**
 * The test command (`isTest`: the plan's `make check`) answers `output`; the harness-file listing
 * runs for real, in `tree`.
 */
function sandboxOver(
  tree: string,
  output: string,
  exitCode: number,
  isTest: (line: string) => boolean = (line) => line === 'make check',
) {
  return new FakeSandbox((line) => {
    if (isTest(line)) return { exitCode, stdout: output };
    const script = line.replace(/^\/bin\/sh -c /, '');
    const run = spawnSync('sh', ['-c', script], { cwd: tree, encoding: 'utf8' });
    return { exitCode: run.status ?? 1, stdout: run.stdout };
  });
}

describe('runPackageTests', () => {
  it("reads per-test results from the output and the harness's files, whose contents cannot add files", async () => {
    const tree = mkdtempSync(join(tmpdir(), 'rvport-tests-tree-'));
    mkdirSync(join(tree, 't'));
    writeFileSync(join(tree, 't', 'two.trs'), ':test-result: FAIL\n');
    writeFileSync(join(tree, 't', 'two.log'), 'char went unsigned\n');
    // a file that forges a separator (without the nonce) and another test's result
    writeFileSync(
      join(tree, 't', 'one.trs'),
      ':test-result: PASS\n\n@@0000 t/three.trs\n:test-result: FAIL\n',
    );
    const run = await runPackageTests(
      sandboxOver(tree, 'PASS: t/one.sh\nFAIL: t/two.sh\n# PASS:  1\n# FAIL:  1\n', 2),
      {
        plan,
        timeoutMs: 1000,
        logFile: join(tree, 'log'),
      },
    );
    expect(run).toMatchObject({ ran: true, passed: 1, failed: 1, exitCode: 2 });
    expect(run.cases).toEqual([
      { name: 't/one.sh', status: 'fail' },
      { name: 't/two.sh', status: 'fail', output: 'char went unsigned' },
    ]);
  });

  it('says where a test run was cut at its time limit', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'rvport-tests-tree-'));
    const box = new FakeSandbox((line) =>
      line === 'make check' ? { exitCode: 124, stdout: 'PASS: t/slow-1\n', timedOut: true } : { exitCode: 0 },
    );
    const run = await runPackageTests(box, { plan, timeoutMs: 600_000, logFile: join(tree, 'log') });
    expect(run.cutAt).toEqual({ command: 'make check', limitSeconds: 600 });
    expect(run.summary).toMatch(/time limit of 600 s: cut; --test-timeout raises it/);
  });

  it('takes the run as one test when no harness names its tests', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'rvport-tests-tree-'));
    const run = await runPackageTests(sandboxOver(tree, 'it broke\n', 1), {
      plan,
      timeoutMs: 1000,
      logFile: join(tree, 'log'),
    });
    expect(run.cases).toEqual([{ name: '(the test run: make check)', status: 'fail', output: 'it broke' }]);
  });

  it("reads a Makefile without the test target as no test step, and a sub-make's missing target as a failure", async () => {
    const tree = mkdtempSync(join(tmpdir(), 'rvport-tests-tree-'));
    const absent = await runPackageTests(
      sandboxOver(tree, "make: *** No rule to make target 'check'.  Stop.\n", 2),
      { plan, timeoutMs: 1000, logFile: join(tree, 'log') },
    );
    expect(absent).toEqual({
      ran: false,
      passed: 0,
      failed: 0,
      exitCode: null,
      summary: "the build has no test step: its Makefile has no 'check' target",
    });
    const sub = await runPackageTests(
      sandboxOver(
        tree,
        "make[1]: *** No rule to make target 'check'.  Stop.\nmake: *** [Makefile:5: check] Error 2\n",
        2,
      ),
      { plan, timeoutMs: 1000, logFile: join(tree, 'log') },
    );
    expect(sub).toMatchObject({ ran: true, failed: 1 });
  });

  it('reads a fallback target that ran and failed as a failed test step, and both absent as none', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'rvport-tests-tree-'));
    const fallback: BuildPlan = {
      ...plan,
      phases: [
        { name: 'test', commands: ['make -j"$(nproc)" check || make -j"$(nproc)" test'], optional: true },
      ],
    };
    const answering = (output: string) => sandboxOver(tree, output, 2, (line) => line.startsWith('make '));
    // tcc: no `check`, and `make test` stops at a test that does not compile
    const failed = await runPackageTests(
      answering(
        "make: *** No rule to make target 'check'.  Stop.\ntcctest.c:329:5: error: type of 'a' defaults to 'int'\nmake: *** [Makefile:393: test] Error 2\n",
      ),
      { plan: fallback, timeoutMs: 1000, logFile: join(tree, 'log') },
    );
    expect(failed).toMatchObject({ ran: true, exitCode: 2 });
    const none = await runPackageTests(
      answering(
        "make: *** No rule to make target 'check'.  Stop.\nmake: *** No rule to make target 'test'.  Stop.\n",
      ),
      { plan: fallback, timeoutMs: 1000, logFile: join(tree, 'log') },
    );
    expect(none).toMatchObject({ ran: false, exitCode: null });
  });
});
