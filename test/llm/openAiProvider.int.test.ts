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

const FixSchema = z.object({
  explanation: z.string(),
  commands: z.array(z.string()),
  diff: z.string().nullable(),
});

const goodFix = { explanation: 'config.guess predates riscv64', commands: ['autoreconf -fi'], diff: null };

describe('OpenAI provider against the fake server', () => {
  let server: FakeLlmServer;
  let dir: string;
  let logPath: string;

  beforeEach(async () => {
    server = await new FakeLlmServer().start();
    dir = await mkdtemp(join(tmpdir(), 'rvport-llm-openai-'));
    logPath = join(dir, 'out', 'llm-calls.jsonl');
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  function client(overrides: LlmConfigOverrides = {}, clock = createTestClock()) {
    const config = resolveLlmConfig({
      env: { LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openAiBaseUrl },
      overrides: { maxRetries: 0, timeoutMs: 5_000, ...overrides },
    });
    return { llm: createLlmClient({ config, callLogPath: logPath, clock, random: () => 0.5 }), clock };
  }

  it('returns a good structured answer, sends response_format json_schema and logs the cost', async () => {
    server.enqueue({ text: JSON.stringify(goodFix), usage: { input: 1200, output: 300 } });
    const { llm } = client();
    const result = await llm.complete({
      role: 'fixer',
      system: 'You fix riscv64 builds.',
      messages: [{ role: 'user', content: 'configure: error: cannot guess build type' }],
      schema: FixSchema,
      schemaName: 'fix',
      maxTokens: 2000,
    });

    expect(result.outcome).toBe('ok');
    expect(result.value).toEqual(goodFix);
    expect(result.usage).toEqual({
      inputTokens: 1200,
      outputTokens: 300,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    // gpt-5.6-sol: $5 in, $30 out per million.
    expect(result.costUsd).toBeCloseTo((1200 * 5 + 300 * 30) / 1e6, 12);

    const request = server.requests[0];
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.body.model).toBe('gpt-5.6-sol');
    expect(request?.body.max_completion_tokens).toBe(2000);
    expect(request?.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'fix',
        strict: true,
        schema: { type: 'object', required: ['explanation', 'commands', 'diff'] },
      },
    });
    expect(request?.body.messages).toEqual([
      { role: 'system', content: 'You fix riscv64 builds.' },
      { role: 'user', content: 'configure: error: cannot guess build type' },
    ]);

    const lines = await readLlmCallLog(logPath);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      role: 'fixer',
      provider: 'openai',
      model: 'gpt-5.6-sol',
      inputTokens: 1200,
      outputTokens: 300,
      costUsd: result.costUsd,
      outcome: 'ok',
    });
    expect(llm.totals()).toEqual({ exchanges: 1, usage: result.usage, costUsd: result.costUsd });
  });

  it('repairs invalid JSON with a turn that quotes the parse error', async () => {
    server.enqueue(
      { text: '{"explanation": "missing brace", "commands": [', usage: { input: 100, output: 20 } },
      { text: JSON.stringify(goodFix), usage: { input: 160, output: 40 } },
    );
    const { llm } = client();
    const result = await llm.complete({
      role: 'fixer',
      messages: [{ role: 'user', content: 'fix it' }],
      schema: FixSchema,
    });

    expect(result.outcome).toBe('ok');
    expect(result.repairTurns).toBe(1);
    expect(result.value).toEqual(goodFix);
    expect(result.usage.inputTokens).toBe(260);
    expect(result.usage.outputTokens).toBe(60);
    const repair = server.requests[1]?.body.messages as { role: string; content: string }[];
    expect(repair).toHaveLength(3);
    expect(repair[1]).toEqual({
      role: 'assistant',
      content: '{"explanation": "missing brace", "commands": [',
    });
    expect(repair[2]?.role).toBe('user');
    expect(repair[2]?.content).toMatch(/not valid JSON/);
    const lines = await readLlmCallLog(logPath);
    expect(lines.map((line) => [line.outcome, line.repairTurn])).toEqual([
      ['invalid', 0],
      ['ok', 1],
    ]);
  });

  it('gives up after the repair turns on a schema-violating answer so the caller uses its fallback', async () => {
    const wrong = JSON.stringify({ explanation: 42, commands: 'make' });
    server.enqueue({ text: wrong }, { text: wrong }, { text: wrong });
    const { llm } = client({ maxRepairTurns: 2 });
    const result = await llm.complete({
      role: 'scout',
      messages: [{ role: 'user', content: 'plan' }],
      schema: FixSchema,
    });

    expect(result.outcome).toBe('invalid');
    expect(result.ok).toBe(false);
    expect(result.value).toBeUndefined();
    expect(result.exchanges).toBe(3);
    expect(result.error?.problems?.join('\n')).toMatch(/expected string, received number at explanation/);
    const lastTurn = (server.requests[2]?.body.messages as { content: string }[] | undefined)?.at(
      -1,
    )?.content;
    expect(lastTurn).toMatch(/at commands/);
    expect((await readLlmCallLog(logPath)).map((line) => line.outcome)).toEqual([
      'invalid',
      'invalid',
      'invalid',
    ]);
  });

  it('waits out a 429 for its retry-after, then succeeds', async () => {
    server.enqueue(
      { status: 429, message: 'Rate limit reached for requests', headers: { 'retry-after': '7' } },
      { text: 'a plain answer', usage: { input: 50, output: 5 } },
    );
    const { llm, clock } = client();
    const result = await llm.complete({
      role: 'summarizer',
      messages: [{ role: 'user', content: 'summarise' }],
    });

    expect(result.outcome).toBe('ok');
    expect(result.text).toBe('a plain answer');
    expect(clock.sleeps).toEqual([7_000]);
    expect(server.requests).toHaveLength(2);
    const lines = await readLlmCallLog(logPath);
    expect(lines.map((line) => line.outcome)).toEqual(['rate_limited', 'ok']);
    expect(lines[0]?.costUsd).toBe(0);
  });

  it('leaves rate limits to the seed policy even when the SDK may retry', async () => {
    server.enqueue(
      { status: 429, message: 'Rate limit reached', headers: { 'retry-after': '2' } },
      { status: 502, message: 'bad gateway', headers: { 'retry-after-ms': '1' } },
      { text: 'done', usage: { input: 1, output: 1 } },
    );
    const { llm, clock } = client({ maxRetries: 2 });
    const result = await llm.complete({ role: 'planner', messages: [{ role: 'user', content: 'x' }] });
    expect(result.outcome).toBe('ok');
    // The 429 was not retried by the SDK: the policy waited its retry-after; the 502 was the SDK's.
    expect(clock.sleeps).toEqual([2_000]);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '0', '1']);
    expect((await readLlmCallLog(logPath)).map((line) => line.outcome)).toEqual(['rate_limited', 'ok']);
  });

  it('stops after three rate-limited runs with the seed schedule when no retry-after is sent', async () => {
    server.enqueue(
      { status: 429, message: 'You exceeded your current quota' },
      { status: 429, message: 'You exceeded your current quota' },
      { status: 429, message: 'You exceeded your current quota' },
    );
    const { llm, clock } = client();
    const result = await llm.complete({ role: 'planner', messages: [{ role: 'user', content: 'x' }] });

    expect(result.outcome).toBe('rate_limited');
    expect(result.error?.status).toBe(429);
    expect(server.requests).toHaveLength(3);
    // 30·2^n s plus jitter (random() = 0.5 → 7.5 s).
    expect(clock.sleeps).toEqual([37_500, 67_500]);
  });

  it('reports a 500 as an error outcome, not a throw', async () => {
    server.enqueue({ status: 500, message: 'upstream exploded' });
    const { llm } = client();
    const result = await llm.complete({ role: 'curator', messages: [{ role: 'user', content: 'rank' }] });
    expect(result.outcome).toBe('error');
    expect(result.error?.status).toBe(500);
    expect(result.error?.message).toMatch(/upstream exploded/);
  });

  it("lets the SDK's own retries absorb a 500", async () => {
    server.enqueue(
      { status: 500, message: 'blip', headers: { 'retry-after-ms': '1' } },
      { text: 'recovered', usage: { input: 3, output: 2 } },
    );
    const { llm } = client({ maxRetries: 1 });
    const result = await llm.complete({ role: 'curator', messages: [{ role: 'user', content: 'rank' }] });
    expect(result.outcome).toBe('ok');
    expect(result.text).toBe('recovered');
    expect(server.requests).toHaveLength(2);
    // The SDK retried inside one exchange: one line, one outcome.
    expect((await readLlmCallLog(logPath)).map((line) => line.outcome)).toEqual(['ok']);
  });

  it('times out a server that does not answer', async () => {
    server.enqueue({ text: 'too late', delayMs: 5_000 });
    const { llm } = client({ timeoutMs: 200 });
    const started = Date.now();
    const result = await llm.complete({ role: 'fixer', messages: [{ role: 'user', content: 'x' }] });
    expect(result.outcome).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await readLlmCallLog(logPath))[0]?.outcome).toBe('timeout');
  });

  it('refuses and records a forbidden command proposed in an otherwise valid fix', async () => {
    const proposal = {
      explanation: 'use the host toolchain',
      commands: [
        './configure --build=riscv64-linux-gnu',
        'mount --bind /native /mnt && make',
        'make -j$(nproc)',
      ],
      diff: null,
    };
    server.enqueue({ text: JSON.stringify(proposal) });
    const { llm } = client();
    const result = await llm.complete({
      role: 'fixer',
      messages: [{ role: 'user', content: 'x' }],
      schema: FixSchema,
    });
    expect(result.outcome).toBe('ok');

    const review = reviewProposedCommands(result.value?.commands ?? [], { mode: 'fix' });
    expect(review.allowed).toEqual(['./configure --build=riscv64-linux-gnu', 'make -j$(nproc)']);
    expect(review.refused).toEqual([
      { command: 'mount --bind /native /mnt && make', reason: expect.stringMatching(/mount/) },
    ]);
  });

  it('serves an OpenAI-compatible server by name with its own model and max_tokens', async () => {
    server.enqueue({ text: '{"ok":true}', usage: { input: 10, output: 3 } });
    const config = resolveLlmConfig({
      env: {
        LLM_PROVIDER: 'ollama',
        OPENAI_BASE_URL: server.openAiBaseUrl,
        RVPORT_LLM_MODEL: 'qwen3-coder:30b',
      },
      overrides: { maxRetries: 0 },
    });
    const llm = createLlmClient({ config, callLogPath: logPath });
    const result = await llm.complete({
      role: 'planner',
      messages: [{ role: 'user', content: 'x' }],
      schema: z.object({ ok: z.boolean() }),
      maxTokens: 100,
    });
    expect(result).toMatchObject({
      outcome: 'ok',
      value: { ok: true },
      provider: 'ollama',
      model: 'qwen3-coder:30b',
    });
    expect(server.requests[0]?.body.max_tokens).toBe(100);
    expect(server.requests[0]?.body.max_completion_tokens).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBe('Bearer no-key');
    // Unknown to the price table: priced high on purpose.
    expect(result.costUsd).toBeCloseTo((10 * 30 + 3 * 150) / 1e6, 12);
  });
});
