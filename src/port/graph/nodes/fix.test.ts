import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../../llm/index.ts';
import { fewShotPath, toFewShotExample } from '../../llm/fewShot.ts';
import type { BuildPlan, PortState } from '../../state/PortState.ts';
import { type FakeLlmAnswer, fakeLlmClient } from '../../testing/fakeLlmClient.ts';
import { FakeSandbox, fakePortServices, runPortNode } from '../../testing/fakePortServices.ts';
import { anError, portState } from '../../testing/portStateFixture.ts';
import { fixNode } from './fix.ts';

const plan: BuildPlan = {
  buildSystem: 'make',
  dir: '.',
  phases: [{ name: 'build', commands: ['make'] }],
  packages: [],
  expectedArtifacts: [],
  origin: 'default',
};

function sourceTree(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rvport-fix-src-'));
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib', 'str.c'), 'int a;\nstatic int strnlen(const char *s, int n);\nint b;\n');
  return dir;
}

function failedState(extra: Partial<PortState> = {}): PortState {
  return portState({
    source: { spec: 'x', name: 'demo', dir: sourceTree() },
    plan,
    attemptCount: 1,
    buildStatus: 'FAILED',
    errors: [
      {
        ...anError('COMPILATION', "lib/str.c:2:12: error: conflicting types for 'strnlen'"),
        phase: 'build',
        command: 'make',
        progress: 3000,
      },
    ],
    ...extra,
  });
}

const GOOD_PATCH = `--- a/lib/str.c
+++ b/lib/str.c
@@ -2 +2 @@
-static int strnlen(const char *s, int n);
+static int own_strnlen(const char *s, int n);
`;

const fix = (over: Record<string, unknown> = {}) => ({
  diagnosis: 'clashes with glibc',
  summary: 'rename strnlen',
  patch: GOOD_PATCH,
  commands: [],
  packages: [],
  env: [],
  ...over,
});

const by = (name: string) => (r: LlmRequest) => r.schemaName === name;
/** A fake fixer answering by request, each call 100 tokens in and 10 out. */
const scriptedLlm = (answer: (r: LlmRequest) => FakeLlmAnswer) =>
  fakeLlmClient((r) => ({ usage: { input: 100, output: 10 }, ...answer(r) }) as FakeLlmAnswer);

describe('fix node', () => {
  it('escalates without an LLM, as the seed says', async () => {
    const update = await runPortNode(fixNode, failedState(), fakePortServices(new FakeSandbox()));
    expect(update.buildStatus).toBe('ESCALATED');
    expect(update.escalationReason).toMatch(/no fix available without an LLM/);
  });

  it('inspects, refuses the command that leaves the sandbox, and takes a fix that applies', async () => {
    const sandbox = new FakeSandbox((c) => ({ exitCode: 0, stdout: `output of ${c}` }));
    const llm = scriptedLlm((r) =>
      by('inspection')(r)
        ? { value: { reasoning: 'look', commands: ['grep -n strnlen lib/str.c', 'mount -t tmpfs x /mnt'] } }
        : {
            value: fix({
              commands: ['sed -i s/a/b/ lib/str.c'],
              packages: ['libbsd-dev'],
              env: [{ name: 'CFLAGS', value: '-O1' }],
            }),
          },
    );
    const state = failedState();
    const update = await runPortNode(fixNode, state, fakePortServices(sandbox, { llm }));

    expect(sandbox.commands).toEqual(['rm -rf -- /build/dest', 'grep -n strnlen lib/str.c']);
    expect(update.refusedCommands?.map((r) => r.command)).toEqual(['mount -t tmpfs x /mnt']);
    const fixPrompt = llm.requests[1]?.messages.at(-1)?.content ?? '';
    expect(fixPrompt).toContain('output of grep -n strnlen lib/str.c');
    expect(update.buildStatus).toBe('FIXING');
    expect(update.patches?.map((p) => p.name)).toEqual(['0001-rename-strnlen.patch']);
    expect(update.patches?.[0]?.diff).toContain('diff --git a/lib/str.c b/lib/str.c');
    expect(update.plan?.phases[0]).toEqual({ name: 'prepare', commands: ['sed -i s/a/b/ lib/str.c'] });
    expect(update.plan?.packages).toEqual(['libbsd-dev']);
    expect(update.plan?.env).toEqual({ CFLAGS: '-O1' });
    expect(update.fixAttempts?.at(-1)).toMatchObject({
      source: 'llm',
      name: 'rename strnlen',
      outcome: 'applied',
    });
    expect(update.fixUnderTrial).toMatchObject({
      fixIndex: 0,
      baselineProgress: 3000,
      planBefore: plan,
      patchesBefore: [],
    });
    expect(update.llm).toMatchObject({ calls: 2, inputTokens: 200, outputTokens: 20 });
  });

  it('resumed in a new instance, the fixer reads a fresh copy of the source (the failed tree is gone)', async () => {
    const sandbox = new FakeSandbox();
    const llm = scriptedLlm((r) =>
      by('inspection')(r) ? { value: { reasoning: '', commands: [] } } : { value: fix() },
    );
    expect(existsSync(join(sandbox.workspace, 'src'))).toBe(false);
    const services = fakePortServices(sandbox, { llm });
    writeFileSync(
      services.buildLog,
      "### [build] (in /build/src) $ make\nlib/str.c:2:12: error: conflicting types for 'strnlen'\n### exit 2 after 1.0 s\n",
    );
    await runPortNode(fixNode, failedState(), services);
    expect(readFileSync(join(sandbox.workspace, 'src', 'lib', 'str.c'), 'utf8')).toContain('strnlen');
    expect(llm.requests[0]?.messages[0]?.content).toContain('static int strnlen');
  });

  it('shows the fixer verified ports with a similar error from the same sandbox', async () => {
    const llm = scriptedLlm((r) =>
      by('inspection')(r) ? { value: { reasoning: '', commands: [] } } : { value: fix() },
    );
    const services = fakePortServices(new FakeSandbox(), { llm });
    const other = portState({
      source: { spec: 'y', name: 'otherpkg' },
      plan: { ...plan, phases: [{ name: 'build', commands: ['make CFLAGS=-DOWN_STRNLEN'] }] },
      errors: [anError('COMPILATION', "conflicting types for 'strnlen' in str.c")],
    });
    const file = fewShotPath(services.home, 'make', 'otherpkg');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(toFewShotExample(other, 'fake-image')));
    await runPortNode(fixNode, failedState(), services);
    expect(llm.requests[0]?.messages[0]?.content).toContain('otherpkg');
  });

  it('answers a refused proposal once with the reason, then takes the second', async () => {
    let fixes = 0;
    const llm = scriptedLlm((r) => {
      if (by('inspection')(r)) return { value: { reasoning: '', commands: [] } };
      fixes++;
      return {
        value: fixes === 1 ? fix({ patch: '--- a/nope.c\n+++ b/nope.c\n@@ -1 +1 @@\n-x\n+y\n' }) : fix(),
      };
    });
    const update = await runPortNode(fixNode, failedState(), fakePortServices(new FakeSandbox(), { llm }));
    expect(update.buildStatus).toBe('FIXING');
    expect(llm.requests.at(-1)?.messages.at(-1)?.content).toMatch(
      /rvport refused that fix: the patch does not apply/,
    );
  });

  it('escalates when every proposal is refused, and records the refusals', async () => {
    const llm = scriptedLlm((r) =>
      by('inspection')(r)
        ? { value: { reasoning: '', commands: [] } }
        : { value: fix({ patch: '', commands: ['curl -o x http://192.0.2.1/x'] }) },
    );
    const update = await runPortNode(fixNode, failedState(), fakePortServices(new FakeSandbox(), { llm }));
    expect(update.buildStatus).toBe('ESCALATED');
    expect(update.escalationReason).toMatch(/proposals were refused/);
    expect(update.refusedCommands).toHaveLength(2);
    expect(update.llm?.calls).toBe(3);
  });

  it('answers a package apt in the sandbox cannot install with that reason, then takes the next fix', async () => {
    let fixes = 0;
    const llm = scriptedLlm((r) => {
      if (by('inspection')(r)) return { value: { reasoning: '', commands: [] } };
      fixes++;
      return { value: fix({ packages: fixes === 1 ? ['libbsd-devel', 'zlib1g-dev'] : ['libbsd-dev'] }) };
    });
    const services = fakePortServices(new FakeSandbox(), {
      llm,
      installable: async () => new Set(['libbsd-dev', 'zlib1g-dev']),
    });
    const update = await runPortNode(fixNode, failedState(), services);
    expect(llm.requests.at(-1)?.messages.at(-1)?.content).toMatch(
      /rvport refused that fix: no such package in the sandbox's Debian: libbsd-devel\n/,
    );
    expect(update.buildStatus).toBe('FIXING');
    expect(update.plan?.packages).toEqual(['libbsd-dev']);
  });

  it.each([
    'LD_PRELOAD',
    'GIT_EXTERNAL_DIFF',
    'GIT_CONFIG_COUNT',
    'TAR_OPTIONS',
    'RIPGREP_CONFIG_PATH',
    'LESSOPEN',
    'GCC_EXEC_PREFIX',
    'PERL5OPT',
  ])(
    'refuses %s, a variable that would change which programs run (also in the inspection round)',
    async (name) => {
      const llm = scriptedLlm((r) =>
        by('inspection')(r)
          ? { value: { reasoning: '', commands: [] } }
          : { value: fix({ patch: '', env: [{ name, value: '/tmp/x' }] }) },
      );
      const update = await runPortNode(fixNode, failedState(), fakePortServices(new FakeSandbox(), { llm }));
      expect(update.buildStatus).toBe('ESCALATED');
      expect(update.escalationReason).toContain(`${name} may not be set`);
    },
  );

  it('stops at the cost cap with the cap as the reason', async () => {
    const llm = scriptedLlm(() => ({ outcome: 'cost_cap' }));
    const update = await runPortNode(fixNode, failedState(), fakePortServices(new FakeSandbox(), { llm }));
    expect(update.buildStatus).toBe('ESCALATED');
    expect(update.escalationReason).toMatch(/reached the cap/);
  });

  it('escalates when the fixer gives no valid answer', async () => {
    const llm = scriptedLlm((r) =>
      by('inspection')(r) ? { value: { reasoning: '', commands: [] } } : { outcome: 'invalid' },
    );
    const update = await runPortNode(fixNode, failedState(), fakePortServices(new FakeSandbox(), { llm }));
    expect(update.buildStatus).toBe('ESCALATED');
    expect(update.escalationReason).toMatch(/no usable answer \(invalid/);
  });
});
