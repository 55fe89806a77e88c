import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ROLE_PROMPT_BUDGETS } from '../../llm/index.ts';
import { routeAnalystToNext } from '../graph/routes/routeAnalystToNext.ts';
import type { PortState } from '../state/PortState.ts';
import { deterministicAnalysis } from '../steps/deterministicAnalysis.ts';
import { planFromAnalysis } from '../steps/planFromAnalysis.ts';
import { fakeLlmClient } from '../testing/fakeLlmClient.ts';
import { portStateForTree } from '../testing/treeState.ts';
import type { PackageAnalysisAnswer } from './analystPrompt.ts';
import { analyzePackage } from './analyzePackage.ts';

const TREE = {
  'CMakeLists.txt':
    'cmake_minimum_required(VERSION 3.10)\nproject(foo C)\nfind_package(ZLIB REQUIRED)\nadd_executable(foo foo.c)\n',
  Makefile: 'all:\n\tcc -o foo foo.c\ninstall:\n\tinstall -D foo $(DESTDIR)/usr/bin/foo\n',
  'README.md': '# foo\n\nfoo compresses things. Build with cmake.\n',
  'foo.c': 'int main(void) { return 0; }\n',
  'contrib/notes.txt': 'nothing to build here\n',
};

const answer = (over: Partial<PackageAnalysisAnswer> = {}): PackageAnalysisAnswer => ({
  purpose: 'A small compression tool.',
  build_system: 'cmake',
  dir: '.',
  dependencies: ['zlib1g-dev', 'libfoo-dev'],
  riscv64_risks: ['none obvious'],
  expected_artifacts: ['foo'],
  needs_custom_plan: false,
  confidence: 0.9,
  ...over,
});

const apply = (state: PortState, update: Partial<PortState>): PortState => ({ ...state, ...update });

describe('analyzePackage (LLM analyst)', () => {
  const roots: string[] = [];
  afterEach(async () => {
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  });
  const tree = async (files: Record<string, string> = TREE) => {
    const made = await portStateForTree(files);
    roots.push(made.root);
    return made.state;
  };

  it('offline: the scripted analysis exactly, no request, no usage change', async () => {
    const state = await tree();
    const llm = fakeLlmClient([], { offline: true });
    const update = await analyzePackage(state, llm);
    expect(update.packageAnalysis).toEqual(deterministicAnalysis(state));
    expect(update.llm).toBeUndefined();
    expect(update.audit?.at(-1)).toMatchObject({ event: 'analysis', detail: 'cmake (0.80), scripted' });
    expect(llm.requests).toHaveLength(0);
  });

  it('merges a good answer: LLM-grounded, valid Debian names added, usage added exactly', async () => {
    const state = await tree();
    const llm = fakeLlmClient([
      {
        value: answer({
          dependencies: ['zlib1g-dev', 'libbar-dev', 'Not A Package', 'libnotreal-dev'],
          needs_custom_plan: true,
        }),
        usage: { input: 1200, output: 300 },
        costUsd: 0.0123,
      },
    ]);
    const before = { ...state.llm, calls: 2, inputTokens: 10, outputTokens: 5, costUsd: 0.001 };
    const update = await analyzePackage(
      { ...state, llm: before },
      llm,
      new Set(['zlib1g-dev', 'libbar-dev']),
    );
    expect(update.packageAnalysis).toMatchObject({
      buildSystem: 'cmake',
      dir: '.',
      confidence: 0.9,
      llmGrounded: true,
      needsCustomPlan: true,
      expectedArtifacts: ['foo'],
    });
    expect(update.packageAnalysis?.dependencies).toEqual(['libbar-dev', 'zlib1g-dev']);
    expect(update.packageAnalysis?.notes).toContain('purpose: A small compression tool.');
    expect(update.llm).toEqual({
      calls: 3,
      inputTokens: 1210,
      outputTokens: 305,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.001 + 0.0123,
    });
    expect(update.audit?.at(-1)?.detail).toMatch(
      /LLM-grounded, custom plan asked for; not taken: not Debian package names: Not A Package; no such package in the sandbox's Debian: libnotreal-dev/,
    );
    expect(update.buildStatus).toBeUndefined();
  });

  it('sends build-file and doc excerpts within the planner budget, with the schema name', async () => {
    const huge = `project(foo C)\n${Array.from({ length: 20_000 }, (_, i) => `set(VAR_${i} "value number ${i}")`).join('\n')}\n`;
    const state = await tree({ ...TREE, 'CMakeLists.txt': huge });
    const llm = fakeLlmClient([{ value: answer() }]);
    await analyzePackage(state, llm);
    const request = llm.requests[0];
    expect(request).toMatchObject({ role: 'planner', schemaName: 'package_analysis' });
    const content = request?.messages[0]?.content ?? '';
    expect(content).toContain('=== CMakeLists.txt ===');
    expect(content).toContain('=== README.md ===');
    expect(content).toContain('=== Makefile ===');
    expect(content).toMatch(/lines \d+–\d+ omitted/);
    expect(content).toContain('Build systems detected');
    // excerpts within the budget (3.5 characters a token), plus a little for the summary around them
    expect(content.length).toBeLessThan(ROLE_PROMPT_BUDGETS.planner * 3.5 + 3_000);
  });

  it('keeps the scripted build system when the LLM names one the scan does not know', async () => {
    const state = await tree();
    const update = await analyzePackage(state, fakeLlmClient([{ value: answer({ build_system: 'bazel' }) }]));
    expect(update.packageAnalysis).toMatchObject({ buildSystem: 'cmake', llmGrounded: true });
    expect(update.audit?.at(-1)?.detail).toMatch(/"bazel" is not one the scan detected; kept cmake/);
  });

  it('takes another detected build system when the LLM is at least as sure, and the plan follows it', async () => {
    const state = await tree();
    const update = await analyzePackage(
      state,
      fakeLlmClient([{ value: answer({ build_system: 'make', confidence: 0.95 }) }]),
    );
    expect(update.packageAnalysis).toMatchObject({ buildSystem: 'make', confidence: 0.95, dir: '.' });
    const plan = planFromAnalysis(apply(state, update), 'default');
    expect(plan?.buildSystem).toBe('make');
    expect(plan?.phases.find((p) => p.name === 'build')?.commands).toEqual(['make -j"$(nproc)"']);
    // The analyst's artifact names are not verification paths.
    expect(plan?.expectedArtifacts).toEqual([]);
  });

  it('never accepts a folder that is not in the tree', async () => {
    const state = await tree();
    for (const dir of ['nonexistent', '../..', '/usr/src', 'contrib/notes.txt']) {
      const update = await analyzePackage(state, fakeLlmClient([{ value: answer({ dir }) }]));
      expect(update.packageAnalysis?.dir).toBe('.');
      expect(update.audit?.at(-1)?.detail).toMatch(/does not exist in the tree/);
    }
    // An existing folder with no detected cmake build in it is not taken either.
    const update = await analyzePackage(state, fakeLlmClient([{ value: answer({ dir: 'contrib' }) }]));
    expect(update.packageAnalysis?.dir).toBe('.');
    expect(update.audit?.at(-1)?.detail).toMatch(/contrib holds no cmake build/);
  });

  it.each(['invalid', 'error', 'timeout', 'rate_limited'] as const)(
    '%s: the scripted analysis, the reason in the audit, the usage counted',
    async (outcome) => {
      const state = await tree();
      const update = await analyzePackage(
        state,
        fakeLlmClient([{ outcome, usage: { input: 50, output: 7 }, costUsd: 0.002 }]),
      );
      expect(update.packageAnalysis).toEqual(deterministicAnalysis(state));
      expect(update.audit?.at(-1)?.detail).toMatch(
        new RegExp(`cmake \\(0\\.80\\), scripted \\(LLM ${outcome}`),
      );
      expect(update.llm).toMatchObject({ calls: 1, inputTokens: 50, outputTokens: 7, costUsd: 0.002 });
      expect(routeAnalystToNext(apply(state, update))).toBe('heuristic_plan');
    },
  );

  it('a schema-invalid value is refused like an invalid outcome', async () => {
    const state = await tree();
    const update = await analyzePackage(state, fakeLlmClient([{ value: { purpose: 'x' } }]));
    expect(update.packageAnalysis?.llmGrounded).toBe(false);
  });

  it('cost cap: keeps the scripted analysis but escalates', async () => {
    const state = await tree();
    const llm = fakeLlmClient([{ outcome: 'cost_cap' }], { costCapUsd: 0.5 });
    const update = await analyzePackage({ ...state, llm: { ...state.llm, costUsd: 0.51 } }, llm);
    expect(update.buildStatus).toBe('ESCALATED');
    expect(update.escalationReason).toBe('LLM cost $0.51 reached the cap of $0.50');
    expect(update.packageAnalysis).toEqual(deterministicAnalysis(state));
    expect(routeAnalystToNext(apply(state, update))).toBe('escalate');
  });

  it('without a scripted analysis: nothing to merge with, no call', async () => {
    const state = await tree();
    const llm = fakeLlmClient([{ value: answer() }]);
    const update = await analyzePackage({ ...state, scripted: undefined }, llm);
    expect(update.packageAnalysis).toBeUndefined();
    expect(llm.requests).toHaveLength(0);
  });
});
