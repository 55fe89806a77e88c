import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentClient } from '../../src/engine/index.ts';
import {
  CostCapReachedError,
  createLlmClient,
  isLlmError,
  loadLlmConfig,
  readLlmCallLog,
  resolveLlmConfig,
  throwIfFailed,
} from '../../src/llm/index.ts';
import { FakeLlmServer } from './fakeLlmServer.ts';
import { createTestClock } from './testClock.ts';

describe('LLM client', () => {
  let server: FakeLlmServer;
  let dir: string;
  let logPath: string;

  beforeEach(async () => {
    server = await new FakeLlmServer().start();
    dir = await mkdtemp(join(tmpdir(), 'rvport-llm-client-'));
    logPath = join(dir, 'llm-calls.jsonl');
  });
  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const openAiEnv = () => ({
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk',
    OPENAI_BASE_URL: server.openAiBaseUrl,
  });

  it('offline: no provider means every call answers "no LLM" without a request or a log line', async () => {
    const config = await loadLlmConfig({ env: { RVPORT_HOME: dir } });
    const llm = createLlmClient({ config, callLogPath: logPath });
    expect(llm.offline).toBe(true);
    expect(llm.offlineReason).toMatch(/no LLM provider configured/);
    const result = await llm.complete({
      role: 'scout',
      messages: [{ role: 'user', content: 'plan' }],
      schema: z.object({ steps: z.array(z.string()) }),
    });
    expect(result).toMatchObject({ outcome: 'offline', ok: false, text: '', costUsd: 0, exchanges: 0 });
    expect(result.error?.message).toMatch(/^no LLM: /);
    expect(llm.totals().costUsd).toBe(0);
    expect(await readLlmCallLog(logPath)).toEqual([]);
    expect(() => throwIfFailed(result)).toThrow(expect.objectContaining({ code: 'offline' }));
  });

  it('offline by flag even with a provider configured', async () => {
    const config = resolveLlmConfig({ env: openAiEnv(), overrides: { offline: true } });
    const llm = createLlmClient({ config });
    expect((await llm.complete({ messages: [{ role: 'user', content: 'x' }] })).outcome).toBe('offline');
    expect(server.requests).toHaveLength(0);
  });

  it("keeps totals that equal the server's usage numbers and the log, exactly", async () => {
    const usages = [
      { input: 1234, output: 321, cacheRead: 100 },
      { input: 77, output: 5 },
      { input: 4096, output: 1024, cacheRead: 2048 },
    ];
    for (const usage of usages) server.enqueue({ text: 'answer', usage });
    const config = resolveLlmConfig({ env: openAiEnv(), overrides: { maxRetries: 0 } });
    const llm = createLlmClient({ config, callLogPath: logPath });
    const results = [];
    for (const role of ['planner', 'summarizer', 'fixer'] as const) {
      results.push(await llm.complete({ role, messages: [{ role: 'user', content: role }] }));
    }
    const totals = llm.totals();
    expect(totals.exchanges).toBe(3);
    expect(totals.usage.inputTokens).toBe(1234 + 77 + 4096);
    expect(totals.usage.outputTokens).toBe(321 + 5 + 1024);
    expect(totals.usage.cacheReadTokens).toBe(100 + 2048);
    const lines = await readLlmCallLog(logPath);
    expect(lines.map((l) => l.model)).toEqual(['gpt-5.6-terra', 'gpt-5.6-luna', 'gpt-5.6-sol']);
    expect(lines.reduce((sum, l) => sum + l.inputTokens, 0)).toBe(totals.usage.inputTokens);
    expect(lines.reduce((sum, l) => sum + l.outputTokens, 0)).toBe(totals.usage.outputTokens);
    const expectedCost =
      (1234 * 2.5 + 321 * 15 + 100 * 0.25 + 77 * 1 + 5 * 6 + 4096 * 5 + 1024 * 30 + 2048 * 0.5) / 1e6;
    expect(totals.costUsd).toBeCloseTo(expectedCost, 9);
    expect(results.reduce((sum, r) => sum + r.costUsd, 0)).toBeCloseTo(totals.costUsd, 9);
    // One JSON object per line, nothing else.
    const text = await readFile(logPath, 'utf8');
    expect(text.trimEnd().split('\n')).toHaveLength(3);
  });

  it('stops at the cost cap with a typed outcome, counting what a resumed port already spent', async () => {
    server.enqueue({ text: 'expensive', usage: { input: 100_000, output: 10_000 } }, { text: 'never sent' });
    const config = resolveLlmConfig({ env: openAiEnv(), overrides: { maxRetries: 0, costCapUsd: 1 } });
    const llm = createLlmClient({ config, callLogPath: logPath, spentUsd: 0.5 });
    // gpt-5.6-sol: 100k in ($0.50) + 10k out ($0.30): 0.5 + 0.8 passes the $1 cap.
    const first = await llm.complete({ role: 'fixer', messages: [{ role: 'user', content: 'x' }] });
    expect(first.outcome).toBe('ok');
    expect(llm.costCapReached()).toBe(true);
    const second = await llm.complete({ role: 'fixer', messages: [{ role: 'user', content: 'y' }] });
    expect(second).toMatchObject({ outcome: 'cost_cap', exchanges: 0, costUsd: 0 });
    expect(second.error?.message).toMatch(/cost cap reached: \$1\.3000 of \$1\.00/);
    expect(server.requests).toHaveLength(1);
    let thrown: unknown;
    try {
      throwIfFailed(second, llm);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CostCapReachedError);
    expect(isLlmError(thrown) && thrown.code).toBe('cost-cap-reached');
    expect(thrown).toMatchObject({ totalUsd: 1.3, capUsd: 1 });
  });

  it('stops repair turns once the cap is passed', async () => {
    server.enqueue({ text: 'not json', usage: { input: 300_000, output: 0 } });
    const config = resolveLlmConfig({ env: openAiEnv(), overrides: { maxRetries: 0, costCapUsd: 0.5 } });
    const llm = createLlmClient({ config });
    const result = await llm.complete({
      role: 'fixer',
      messages: [{ role: 'user', content: 'x' }],
      schema: z.object({ a: z.string() }),
    });
    expect(result.outcome).toBe('cost_cap');
    expect(server.requests).toHaveLength(1);
  });

  it('is aborted by the caller while waiting out a rate limit', async () => {
    server.enqueue({ status: 429, message: 'rate limit' });
    const config = resolveLlmConfig({ env: openAiEnv(), overrides: { maxRetries: 0 } });
    const controller = new AbortController();
    const clock = createTestClock();
    const llm = createLlmClient({
      config,
      clock: {
        now: clock.now,
        sleep: async (ms, signal) => {
          controller.abort();
          return clock.sleep(ms, signal);
        },
      },
    });
    const result = await llm.complete({
      messages: [{ role: 'user', content: 'x' }],
      signal: controller.signal,
    });
    expect(result.outcome).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it("serves as the engine AgentNode's client, tools included", async () => {
    server.enqueue(
      {
        text: '',
        toolCalls: [{ id: 'call_1', name: 'inspect', input: { command: 'tail -n 50 build.log' } }],
      },
      { text: 'Add -latomic to LIBS.', usage: { input: 40, output: 8 } },
    );
    const config = resolveLlmConfig({ env: openAiEnv(), overrides: { maxRetries: 0 } });
    const agentClient: AgentClient = createLlmClient({ config });
    const first = await agentClient.complete({
      role: 'fixer',
      messages: [{ role: 'user', content: 'undefined reference to __atomic_fetch_add_1' }],
      tools: [{ name: 'inspect', description: 'Run a read-only command' }],
    });
    expect(first.toolCalls).toEqual([
      { id: 'call_1', name: 'inspect', input: { command: 'tail -n 50 build.log' } },
    ]);
    expect(server.requests[0]?.body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'inspect',
          description: 'Run a read-only command',
          parameters: { type: 'object', additionalProperties: true },
        },
      },
    ]);
    const second = await agentClient.complete({
      role: 'fixer',
      messages: [
        { role: 'user', content: 'undefined reference to __atomic_fetch_add_1' },
        { role: 'assistant', content: '(tool calls)' },
        { role: 'user', content: '[inspect] ...' },
      ],
    });
    expect(second).toMatchObject({
      text: 'Add -latomic to LIBS.',
      usage: { inputTokens: 40, outputTokens: 8 },
    });
    expect(second.costUsd).toBeGreaterThan(0);
  });
});
