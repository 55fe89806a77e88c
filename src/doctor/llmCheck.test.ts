import { describe, expect, it } from 'vitest';
import { evaluateLlm } from './llmCheck.ts';

describe('evaluateLlm', () => {
  it('passes with no LLM configured: ports run deterministically', () => {
    expect(evaluateLlm({ provider: null, requested: false })[0]).toEqual({
      id: 'llm',
      status: 'ok',
      detail: 'no LLM configured: ports run deterministically',
    });
  });

  it('warns about a provider named without its key', () => {
    const [check] = evaluateLlm({
      provider: null,
      requested: true,
      offlineReason: 'LLM_PROVIDER is anthropic but ANTHROPIC_API_KEY is not set',
    });
    expect(check?.status).toBe('warn');
    expect(check?.detail).toContain('ANTHROPIC_API_KEY is not set');
  });

  it('passes a provider that answers and warns about one that refuses the key', () => {
    expect(
      evaluateLlm({ provider: 'openai', requested: true, reply: { ok: true, outcome: 'ok' } })[0]?.status,
    ).toBe('ok');
    const [refused] = evaluateLlm({
      provider: 'openai',
      model: 'm',
      requested: true,
      reply: { ok: false, outcome: 'error', status: 401, message: 'bad key' },
    });
    expect(refused?.status).toBe('warn');
    expect(refused?.detail).toContain(
      'openai (m) did not answer a one-token request (error HTTP 401: bad key)',
    );
    expect(refused?.fix).toContain('API key');
  });
});
