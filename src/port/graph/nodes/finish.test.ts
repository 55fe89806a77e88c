import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fewShotDir } from '../../llm/fewShotExample.ts';
import type { BuildPlan } from '../../state/PortState.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../../testing/fakePortServices.ts';
import { portState } from '../../testing/portStateFixture.ts';
import { finishNode } from './finish.ts';

const plan: BuildPlan = {
  buildSystem: 'autotools',
  dir: '.',
  phases: [
    { name: 'configure', commands: ['./configure'] },
    { name: 'build', commands: ['make'] },
    { name: 'test', commands: ['make check'] },
  ],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

function state() {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-finish-src-'));
  return portState({ source: { spec: dir, name: 'demo', dir }, plan, buildStatus: 'BUILDING' });
}

describe('the finish node', () => {
  it("runs the package's tests once and reports their counts", async () => {
    const sandbox = new FakeSandbox((command) =>
      command === 'make check' ? { exitCode: 0, stdout: '# PASS:  7\n# FAIL:  0\n' } : { exitCode: 0 },
    );
    const update = await runPortNode(finishNode, state(), fakePortServices(sandbox));
    expect(sandbox.commands.filter((c) => c === 'make check')).toHaveLength(1);
    expect(update.tests).toMatchObject({ ran: true, passed: 7, failed: 0, exitCode: 0 });
  });

  it("says the tests need a submodule the checkout has no content of (nghttp2's munit, real output)", async () => {
    const output = readFileSync(
      new URL('../../../heuristics/fixtures/make-check-submodule-header.txt', import.meta.url),
      'utf8',
    );
    const sandbox = new FakeSandbox((command) =>
      command === 'make check' ? { exitCode: 2, stdout: output } : { exitCode: 0 },
    );
    const s = state();
    const dir = s.source.dir as string;
    writeFileSync(
      join(dir, '.gitmodules'),
      '[submodule "tests/munit"]\n\tpath = tests/munit\n\turl = https://github.com/ngtcp2/munit\n',
    );
    mkdirSync(join(dir, 'tests/munit'), { recursive: true });
    const update = await runPortNode(finishNode, s, fakePortServices(sandbox));
    expect(update.tests?.summary).toMatch(
      /^the tests need the submodule `tests\/munit` \(https:\/\/github\.com\/ngtcp2\/munit\), which has no content in this checkout\n/,
    );
    // with the submodule there, the summary is the output's tail alone
    writeFileSync(join(dir, 'tests/munit/munit.h'), '');
    const again = await runPortNode(
      finishNode,
      s,
      fakePortServices(
        new FakeSandbox((command) =>
          command === 'make check' ? { exitCode: 2, stdout: output } : { exitCode: 0 },
        ),
      ),
    );
    expect(again.tests?.summary).not.toMatch(/submodule/);
  });

  it('runs no tests in a timing-only run (runTests false), and says so', async () => {
    const sandbox = new FakeSandbox();
    const update = await runPortNode(finishNode, state(), fakePortServices(sandbox, { runTests: false }));
    expect(sandbox.commands).not.toContain('make check');
    expect(update.tests).toMatchObject({ ran: false, summary: 'tests not run (a timing-only run)' });
  });
});

describe('the finish node, resumed', () => {
  it('checkpoints the test run and the LLM answers, and a resumed finish takes them from there', async () => {
    const sandbox = new FakeSandbox((command) =>
      command === 'make check' ? { exitCode: 0, stdout: '# PASS:  7\n# FAIL:  0\n' } : { exitCode: 0 },
    );
    const saved: unknown[] = [];
    await runPortNode(finishNode, state(), fakePortServices(sandbox), { saved });
    expect(saved.at(-1)).toMatchObject({ tests: { passed: 7 }, curated: {}, summarized: {} });

    const again = new FakeSandbox();
    const update = await runPortNode(finishNode, state(), fakePortServices(again), { value: saved.at(-1) });
    expect(again.commands).not.toContain('make check');
    expect(update.tests).toMatchObject({ ran: true, passed: 7 });
  });
});

describe('the finish node and the recipe cache', () => {
  it('writes the cache entry last: a finish that fails before its end leaves no entry to answer from', async () => {
    const services = fakePortServices(new FakeSandbox());
    // the few-shot example cannot be saved (a file where its folder would be)
    writeFileSync(fewShotDir(services.home), 'not a folder');
    const verified = {
      ...state(),
      buildStatus: 'SUCCESS' as const,
      verification: { verdict: 'verified' as const, reason: 'riscv64' },
    };
    await expect(runPortNode(finishNode, verified, services)).rejects.toThrow();
    expect(existsSync(join(services.home, 'recipes'))).toBe(false);
  });

  it('saves the entry of a verified finish', async () => {
    const services = fakePortServices(new FakeSandbox());
    const verified = {
      ...state(),
      buildStatus: 'SUCCESS' as const,
      verification: { verdict: 'verified' as const, reason: 'riscv64' },
    };
    await runPortNode(finishNode, verified, services);
    expect(readdirSync(join(services.home, 'recipes', 'demo'))).toHaveLength(1);
  });
});
