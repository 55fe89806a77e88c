import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createLlmClient,
  type LlmConfigOverrides,
  readLlmCallLog,
  resolveLlmConfig,
  reviewProposedCommands,
} from '../../src/llm/index.ts';
import { FakeLlmServer } from './fakeLlmServer.ts';
import { createTestClock } from './testClock.ts';

const AnalysisSchema = z.object({
  purpose: z.string(),
  buildSystem: z.enum(['autotools', 'cmake', 'make', 'meson', 'other']),
  needsCustomPlan: z.boolean(),
});
const goodAnalysis = { purpose: 'MPEG audio decoder', buildSystem: 'autotools', needsCustomPlan: true };

const FixSchema = z.object({ commands: z.array(z.string()), diff: z.string().nullable() });

describe('Anthropic provider against the fake server', () => {
  let server: FakeLlmServer;
  let dir: string;
  let logPath: string;

  beforeEach(async () => {
    server = await new FakeLlmServer().start();
    dir = await mkdtemp(join(tmpdir(), 'rvport-llm-anthropic-'));
    logPath = join(dir, 'llm-calls.jsonl');
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  function client(overrides: LlmConfigOverrides = {}, file = {}) {
    const clock = createTestClock();
    const config = resolveLlmConfig({
      env: {
        LLM_PROVIDER: 'anthropic',
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      },
      file,
      overrides: { maxRetries: 0, timeoutMs: 5_000, ...overrides },
    });
    return { llm: createLlmClient({ config, callLogPath: logPath, clock, random: () => 0 }), clock };
  }

  it('returns a good structured answer via output_config and logs tokens and cost, cache included', async () => {
    server.enqueue({
      text: JSON.stringify(goodAnalysis),
      usage: { input: 2000, output: 150, cacheRead: 1000, cacheWrite: 400 },
    });
    const { llm } = client();
    const result = await llm.complete({
      role: 'planner',
      system: 'You analyse packages.',
      messages: [{ role: 'user', content: 'configure.ac: AC_INIT([libmad])' }],
      schema: AnalysisSchema,
      maxTokens: 1500,
    });

    expect(result).toMatchObject({
      outcome: 'ok',
      value: goodAnalysis,
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
    });
    expect(result.usage).toEqual({
      inputTokens: 2000,
      outputTokens: 150,
      cacheReadTokens: 1000,
      cacheWriteTokens: 400,
    });
    // claude-sonnet-5-5: 2 in, 10 out, 0.10 cache read, 2.50 cache write per million.
    expect(result.costUsd).toBeCloseTo((2000 * 2 + 150 * 10 + 1000 * 0.1 + 400 * 2.5) / 1e6, 12);

    const request = server.requests[0];
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers.authorization ?? request?.headers['x-api-key']).toMatch(/sk-ant-test/);
    expect(request?.body).toMatchObject({
      model: 'claude-sonnet-5-5',
      max_tokens: 1500,
      messages: [{ role: 'user', content: 'configure.ac: AC_INIT([libmad])' }],
      output_config: { format: { type: 'json_schema', schema: { type: 'object' } } },
    });
    expect(request?.body.system).toMatch(/^You analyse packages\.\n\nAnswer with a single JSON value only/);

    const [line] = await readLlmCallLog(logPath);
    expect(line).toMatchObject({
      role: 'planner',
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
      inputTokens: 2000,
      outputTokens: 150,
      cacheReadTokens: 1000,
      cacheWriteTokens: 400,
      costUsd: result.costUsd,
      outcome: 'ok',
      repairTurn: 0,
    });
    expect(line?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('puts the schema into the system prompt in instruction mode', async () => {
    server.enqueue({ text: `Sure:\n\`\`\`json\n${JSON.stringify(goodAnalysis)}\n\`\`\`` });
    const { llm } = client({}, { anthropicStructuredOutput: 'instruction' });
    const result = await llm.complete({
      role: 'planner',
      messages: [{ role: 'user', content: 'x' }],
      schema: AnalysisSchema,
    });
    expect(result.value).toEqual(goodAnalysis);
    expect(server.requests[0]?.body.output_config).toBeUndefined();
    expect(server.requests[0]?.body.system).toMatch(/JSON Schema:\n\{.*"needsCustomPlan"/);
  });

  it('repairs invalid JSON, quoting the error, and sums the usage of both exchanges', async () => {
    server.enqueue(
      { text: "{'purpose': 'single quotes'}", usage: { input: 300, output: 30 } },
      { text: JSON.stringify(goodAnalysis), usage: { input: 350, output: 40 } },
    );
    const { llm } = client();
    const result = await llm.complete({
      role: 'planner',
      messages: [{ role: 'user', content: 'x' }],
      schema: AnalysisSchema,
    });
    expect(result).toMatchObject({ outcome: 'ok', repairTurns: 1, exchanges: 2, value: goodAnalysis });
    expect(result.usage).toEqual({
      inputTokens: 650,
      outputTokens: 70,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    const second = server.requests[1]?.body.messages as { role: string; content: string }[];
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second[2]?.content).toMatch(/not valid JSON: .*property name/i);
    const lines = await readLlmCallLog(logPath);
    expect(lines.map((l) => l.outcome)).toEqual(['invalid', 'ok']);
    expect(lines.reduce((sum, l) => sum + l.inputTokens, 0)).toBe(650);
  });

  it('falls back after a schema-violating answer and its repair turns', async () => {
    const wrong = JSON.stringify({ purpose: 'x', buildSystem: 'bazel', needsCustomPlan: 'yes' });
    server.enqueue({ text: wrong }, { text: wrong });
    const { llm } = client({ maxRepairTurns: 1 });
    const result = await llm.complete({
      role: 'planner',
      messages: [{ role: 'user', content: 'x' }],
      schema: AnalysisSchema,
    });
    expect(result.outcome).toBe('invalid');
    expect(result.value).toBeUndefined();
    expect(result.error?.problems).toEqual([
      expect.stringMatching(/Invalid option.*at buildSystem/),
      expect.stringMatching(/expected boolean, received string at needsCustomPlan/),
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('honours retry-after on a 429, then succeeds', async () => {
    server.enqueue(
      {
        status: 429,
        message: 'Number of request tokens has exceeded your rate limit',
        headers: { 'retry-after': '12' },
      },
      { text: 'recipe text', usage: { input: 20, output: 10 } },
    );
    // SDK retries on: the rate limit must still go to the seed policy, not to the SDK's backoff.
    const { llm, clock } = client({ maxRetries: 2 });
    const result = await llm.complete({ role: 'summarizer', messages: [{ role: 'user', content: 'x' }] });
    expect(result).toMatchObject({ outcome: 'ok', text: 'recipe text', exchanges: 2 });
    expect(clock.sleeps).toEqual([12_000]);
    expect(server.requests).toHaveLength(2);
    expect((await readLlmCallLog(logPath)).map((l) => l.outcome)).toEqual(['rate_limited', 'ok']);
  });

  it('reports a 500 as an error outcome', async () => {
    server.enqueue({ status: 500, message: 'Internal server error' });
    const { llm } = client();
    const result = await llm.complete({ role: 'scout', messages: [{ role: 'user', content: 'x' }] });
    expect(result).toMatchObject({ outcome: 'error', ok: false, error: { status: 500 } });
  });

  it('times out', async () => {
    server.enqueue({ text: 'late', delayMs: 5_000 });
    const { llm } = client({ timeoutMs: 200 });
    const result = await llm.complete({ role: 'scout', messages: [{ role: 'user', content: 'x' }] });
    expect(result.outcome).toBe('timeout');
  });

  it('refuses a forbidden command in a fix and keeps the rest', async () => {
    server.enqueue({
      text: JSON.stringify({
        commands: ['sed -i "s/-march=native//" Makefile', 'echo /usr/lib > /native/etc/ld.so.conf', 'make'],
        diff: null,
      }),
    });
    const { llm } = client();
    const result = await llm.complete({
      role: 'fixer',
      messages: [{ role: 'user', content: 'x' }],
      schema: FixSchema,
    });
    const review = reviewProposedCommands(result.value?.commands ?? [], { mode: 'fix' });
    expect(review.allowed).toEqual(['sed -i "s/-march=native//" Makefile', 'make']);
    expect(review.refused).toEqual([
      {
        command: 'echo /usr/lib > /native/etc/ld.so.conf',
        reason: expect.stringMatching(/writes under \/native/),
      },
    ]);
  });

  it('passes tools and returns the tool calls the model made', async () => {
    server.enqueue({
      text: '',
      toolCalls: [{ id: 'toolu_1', name: 'inspect', input: { command: 'cat config.log' } }],
    });
    const { llm } = client();
    const result = await llm.complete({
      role: 'fixer',
      messages: [{ role: 'user', content: 'why did configure fail?' }],
      tools: [{ name: 'inspect', description: 'Run a read-only command in the sandbox' }],
    });
    expect(result.outcome).toBe('ok');
    expect(result.toolCalls).toEqual([
      { id: 'toolu_1', name: 'inspect', input: { command: 'cat config.log' } },
    ]);
    expect(server.requests[0]?.body.tools).toEqual([
      {
        name: 'inspect',
        description: 'Run a read-only command in the sandbox',
        input_schema: { type: 'object', additionalProperties: true },
      },
    ]);
  });
});
