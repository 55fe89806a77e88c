import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyProviderError } from './providerFailure.ts';

describe('classifyProviderError', () => {
  const now = 0;
  it('reads rate limits with their retry-after from both SDKs', () => {
    const headers = new Headers({ 'retry-after': '3' });
    const openai = OpenAI.APIError.generate(429, { message: 'Rate limit reached' }, undefined, headers);
    expect(classifyProviderError(openai, now)).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterMs: 3000,
    });
    const anthropic = Anthropic.APIError.generate(
      429,
      { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
      undefined,
      headers,
    );
    expect(classifyProviderError(anthropic, now)).toMatchObject({ kind: 'rate_limited', status: 429 });
  });

  it('treats quota and payment errors as rate limits, per the seed', () => {
    const error = OpenAI.APIError.generate(402, { message: 'Payment Required' }, undefined, new Headers());
    expect(classifyProviderError(error, now).kind).toBe('rate_limited');
  });

  it('knows time-outs and aborts', () => {
    expect(classifyProviderError(new OpenAI.APIConnectionTimeoutError(), now).kind).toBe('timeout');
    expect(classifyProviderError(new Anthropic.APIConnectionTimeoutError(), now).kind).toBe('timeout');
    expect(classifyProviderError(new OpenAI.APIUserAbortError(), now).kind).toBe('aborted');
  });

  it('calls everything else an error', () => {
    const error = OpenAI.APIError.generate(500, { message: 'boom' }, undefined, new Headers());
    expect(classifyProviderError(error, now)).toMatchObject({ kind: 'error', status: 500 });
    expect(classifyProviderError('weird', now)).toEqual({ kind: 'error', message: 'weird' });
  });
});
