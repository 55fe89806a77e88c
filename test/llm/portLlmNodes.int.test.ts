import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createLlmClient,
  type LlmConfigFile,
  readLlmCallLog,
  resolveLlmConfig,
} from '../../src/llm/index.ts';
import { analyzePackage } from '../../src/port/llm/analyzePackage.ts';
import { curateArtifacts } from '../../src/port/llm/curateArtifacts.ts';
import { requiredRecipeLines } from '../../src/port/llm/requiredRecipeLines.ts';
import { summarizeRecipe } from '../../src/port/llm/summarizeRecipe.ts';
import { renderRecipe } from '../../src/port/outputs/renderRecipe.ts';
import type { ArtifactRecord, PortState } from '../../src/port/state/PortState.ts';
import { portStateForTree } from '../../src/port/testing/treeState.ts';
import { FakeLlmServer } from './fakeLlmServer.ts';

/** Round prices (dollars per million tokens) so the expected costs are plain arithmetic. */
const PRICES: LlmConfigFile = {
  model: 'port-test-model',
  prices: { 'port-test-model': { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 4 } },
};
const cost = (u: { input: number; output: number; cacheRead?: number; cacheWrite?: number }) =>
  (u.input * 2 + u.output * 10 + (u.cacheRead ?? 0) * 0.5 + (u.cacheWrite ?? 0) * 4) / 1e6;

const TREE = {
  'CMakeLists.txt': 'cmake_minimum_required(VERSION 3.10)\nproject(foo C)\nadd_executable(foo foo.c)\n',
  'README.md': '# foo\nA tool.\n',
  'foo.c': 'int main(void) { return 0; }\n',
};
const ANALYSIS = {
  purpose: 'A tool.',
  build_system: 'cmake',
  dir: '.',
  dependencies: ['zlib1g-dev'],
  riscv64_risks: [],
  expected_artifacts: ['foo'],
  needs_custom_plan: false,
  confidence: 0.9,
};
const LD = '/lib/ld-linux-riscv64-lp64d.so.1';
const ARTIFACTS: ArtifactRecord[] = [
  {
    path: 'build/foo',
    machine: 'riscv64',
    bits: 64,
    endian: 'little',
    type: 'shared',
    abi: 'lp64d',
    interpreter: LD,
    linkage: 'dynamic',
    role: 'program',
    rank: 0,
  },
  {
    path: 'build/libfoo.a',
    machine: 'riscv64',
    bits: 64,
    endian: 'little',
    type: 'archive',
    abi: 'lp64d',
    interpreter: null,
    linkage: null,
    role: 'static-library',
    rank: 2,
  },
];

describe('port LLM nodes over HTTP (fake provider)', () => {
  let server: FakeLlmServer;
  let dir: string;
  let root: string;
  let state: PortState;
  const logPath = () => join(dir, 'llm-calls.jsonl');

  beforeEach(async () => {
    server = await new FakeLlmServer().start();
    dir = await mkdtemp(join(tmpdir(), 'rvport-port-llm-'));
    const made = await portStateForTree(TREE);
    root = made.root;
    state = made.state;
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
    await rm(root, { recursive: true, force: true });
  });

  it('OpenAI wire format: analyst (with a repair turn) and curator; state.llm equals the server usage', async () => {
    const usages = [
      { input: 1000, output: 50 },
      { input: 1200, output: 180, cacheRead: 100 },
      { input: 400, output: 90 },
    ];
    server.enqueue(
      { text: 'not json at all', usage: usages[0] },
      { text: JSON.stringify(ANALYSIS), usage: usages[1] },
      {
        text: JSON.stringify({
          artifacts: [
            { path: 'build/libfoo.a', role: 'static-library' },
            { path: 'build/foo', role: 'program' },
          ],
        }),
        usage: usages[2],
      },
    );
    const config = resolveLlmConfig({
      env: { LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openAiBaseUrl },
      file: PRICES,
      overrides: { maxRetries: 0 },
    });
    const llm = createLlmClient({ config, callLogPath: logPath() });

    const analysed = { ...state, ...(await analyzePackage(state, llm)) };
    expect(analysed.packageAnalysis).toMatchObject({
      buildSystem: 'cmake',
      llmGrounded: true,
      dependencies: ['zlib1g-dev'],
    });
    const curated = await curateArtifacts({ ...analysed, artifacts: ARTIFACTS }, llm);
    expect(curated.artifacts.map((a) => a.path)).toEqual(['build/libfoo.a', 'build/foo']);

    const [first, repair, curator] = server.requests;
    for (const [request, name] of [
      [first, 'package_analysis'],
      [repair, 'package_analysis'],
      [curator, 'artifact_ranking'],
    ] as const) {
      expect(request?.api).toBe('openai');
      expect(request?.body.model).toBe('port-test-model');
      expect(request?.body.response_format).toMatchObject({
        type: 'json_schema',
        json_schema: { name, strict: true },
      });
    }
    const firstMessages = first?.body.messages as { role: string; content: string }[];
    expect(firstMessages[1]?.content).toContain('=== CMakeLists.txt ===');

    expect(curated.llm).toEqual({
      calls: 3,
      inputTokens: 1000 + 1200 + 400,
      outputTokens: 50 + 180 + 90,
      cacheReadTokens: 100,
      cacheWriteTokens: 0,
      costUsd: expect.closeTo(
        cost(usages[0] as never) + cost(usages[1] as never) + cost(usages[2] as never),
        12,
      ),
    });
    const log = await readLlmCallLog(logPath());
    expect(log.map((l) => [l.role, l.repairTurn, l.outcome])).toEqual([
      ['planner', 0, 'invalid'],
      ['planner', 1, 'ok'],
      ['curator', 0, 'ok'],
    ]);
    expect(curated.llm.costUsd).toBeCloseTo(llm.totals().costUsd, 12);
    expect(curated.llm.costUsd).toBeCloseTo(
      log.reduce((sum, l) => sum + l.costUsd, 0),
      12,
    );
  });

  it('Anthropic wire format: summarizer accepted, then a server failure falls back and still counts', async () => {
    const finished: PortState = {
      ...state,
      plan: {
        buildSystem: 'cmake',
        dir: '.',
        phases: [],
        packages: [],
        expectedArtifacts: [],
        origin: 'default',
      },
      executed: [
        {
          phase: 'configure',
          command: 'cmake -S . -B build',
          exitCode: 0,
          durationMs: 1,
          attempt: 1,
          origin: 'plan',
        },
        {
          phase: 'build',
          command: 'cmake --build build',
          exitCode: 0,
          durationMs: 1,
          attempt: 1,
          origin: 'plan',
        },
      ],
      verification: { verdict: 'verified', reason: '1 riscv64 ELF object, none for another machine' },
      artifacts: ARTIFACTS,
    };
    const deterministic = renderRecipe(finished, { imageId: 'img', suite: 'trixie' });
    const markdown = `# foo on riscv64\n\n${requiredRecipeLines(finished).join('\n')}\n`;
    server.enqueue(
      {
        text: JSON.stringify({ recipe_markdown: markdown }),
        usage: { input: 700, output: 250, cacheWrite: 64 },
      },
      { status: 500, message: 'overloaded' },
    );
    const config = resolveLlmConfig({
      env: {
        LLM_PROVIDER: 'anthropic',
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      },
      file: PRICES,
      overrides: { maxRetries: 0 },
    });
    const llm = createLlmClient({ config, callLogPath: logPath() });

    const summarized = await summarizeRecipe(finished, deterministic, llm);
    expect(summarized.recipe).toBe(markdown);
    const request = server.requests[0];
    expect(request?.api).toBe('anthropic');
    expect(JSON.stringify(request?.body)).toContain('json_schema');

    const again = await summarizeRecipe({ ...finished, llm: summarized.llm }, deterministic, llm);
    expect(again.recipe).toBe(deterministic);
    expect(again.note).toMatch(/^deterministic recipe \(LLM error/);
    expect(again.llm).toMatchObject({
      calls: 2,
      inputTokens: 700,
      outputTokens: 250,
      cacheReadTokens: 0,
      cacheWriteTokens: 64,
    });
    expect(again.llm.costUsd).toBeCloseTo(cost({ input: 700, output: 250, cacheWrite: 64 }), 12);
  });
});
