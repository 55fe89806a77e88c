import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, isRateLimitError, nextRetry, RATE_LIMIT_RULE } from './retryPolicy.ts';

describe('isRateLimitError', () => {
  it.each([
    '429 Too Many Requests',
    'Error: rate limit exceeded',
    'rate_limit_error',
    'Quota exceeded for this month',
    'HTTP 402 Payment Required',
  ])('recognises %s', (text) => {
    expect(isRateLimitError(new Error(text))).toBe(true);
  });

  it('recognises a status property', () => {
    expect(isRateLimitError(Object.assign(new Error('nope'), { status: 429 }))).toBe(true);
  });

  it.each(['exit status 2', 'file 4290.c not found', 'ECONNREFUSED'])('does not take %s for one', (text) => {
    expect(isRateLimitError(new Error(text))).toBe(false);
  });
});

describe('nextRetry', () => {
  const rateLimited = new Error('429');

  it('waits 30·2^n s plus up to 15 s of jitter, three runs at most', () => {
    expect(nextRetry(rateLimited, 1, DEFAULT_RETRY_POLICY, 0)).toEqual({
      delayMs: 30_000,
      reason: 'rate-limit',
    });
    expect(nextRetry(rateLimited, 1, DEFAULT_RETRY_POLICY, 0.999_999)?.delayMs).toBe(45_000);
    expect(nextRetry(rateLimited, 2, DEFAULT_RETRY_POLICY, 0.5)).toEqual({
      delayMs: 67_500,
      reason: 'rate-limit',
    });
    expect(nextRetry(rateLimited, RATE_LIMIT_RULE.maxRuns, DEFAULT_RETRY_POLICY, 0)).toBeNull();
  });

  it('does not retry other errors by default', () => {
    expect(nextRetry(new Error('boom'), 1, DEFAULT_RETRY_POLICY, 0.5)).toBeNull();
  });

  it('backs off exponentially within the policy, capped, with jitter', () => {
    const policy = {
      ...DEFAULT_RETRY_POLICY,
      maxAttempts: 5,
      initialDelayMs: 100,
      maxDelayMs: 350,
      jitter: 0,
    };
    const delays = [1, 2, 3, 4].map((n) => nextRetry(new Error('x'), n, policy, 0.5)?.delayMs);
    expect(delays).toEqual([100, 200, 350, 350]);
    expect(nextRetry(new Error('x'), 5, policy, 0.5)).toBeNull();
    const jittered = { ...policy, jitter: 0.2 };
    expect(nextRetry(new Error('x'), 1, jittered, 0)?.delayMs).toBe(80);
    expect(nextRetry(new Error('x'), 1, jittered, 1)?.delayMs).toBe(120);
  });

  it('retries only what retryOn accepts', () => {
    const policy = {
      ...DEFAULT_RETRY_POLICY,
      maxAttempts: 3,
      retryOn: (e: unknown) => String(e).includes('flaky'),
    };
    expect(nextRetry(new Error('flaky network'), 1, policy, 0)).not.toBeNull();
    expect(nextRetry(new Error('syntax error'), 1, policy, 0)).toBeNull();
  });
});
