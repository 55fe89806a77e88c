import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateLlm, gatherLlmFacts } from '../../src/doctor/llmCheck.ts';
import { FakeLlmServer } from '../llm/fakeLlmServer.ts';

describe('gatherLlmFacts (real HTTP to the fake LLM server)', () => {
  const server = new FakeLlmServer();
  let home: string;
  beforeAll(async () => {
    await server.start();
    home = mkdtempSync(join(tmpdir(), 'rvport-llm-facts-'));
  });
  afterAll(async () => {
    await server.close();
    rmSync(home, { recursive: true, force: true });
  });
  const env = () => ({
    LLM_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: server.openAiBaseUrl,
  });

  it('makes one call of one token and reports the answer', async () => {
    server.enqueue({ text: 'OK' });
    const before = server.requests.length;
    const facts = await gatherLlmFacts(env(), home);
    expect(facts).toMatchObject({ provider: 'openai', requested: true, reply: { ok: true, outcome: 'ok' } });
    expect(server.requests.length - before).toBe(1);
    const body = server.requests.at(-1)?.body ?? {};
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(1);
  });

  it('reports a refused key with its HTTP status, once (no retries)', async () => {
    server.enqueue({ status: 401, message: 'invalid api key' });
    const before = server.requests.length;
    const facts = await gatherLlmFacts(env(), home);
    expect(facts.reply).toMatchObject({ ok: false, status: 401 });
    expect(server.requests.length - before).toBe(1);
    expect(evaluateLlm(facts)[0]?.status).toBe('warn');
  });

  it('asks nothing when no provider is configured', async () => {
    const before = server.requests.length;
    const facts = await gatherLlmFacts({}, home);
    expect(facts).toEqual({ provider: null, requested: false, offlineReason: expect.any(String) });
    expect(server.requests.length).toBe(before);
  });

  it('knows a provider was asked for when its key is missing', async () => {
    const facts = await gatherLlmFacts({ LLM_PROVIDER: 'anthropic' }, home);
    expect(facts).toMatchObject({ provider: null, requested: true });
  });
});
