import { describe, expect, it } from 'vitest';
import {
  looksLikeRateLimit,
  RATE_LIMIT_MAX_RETRY_AFTER_MS,
  rateLimitWaitMs,
  retryAfterMsFromHeaders,
} from './rateLimitPolicy.ts';

describe('looksLikeRateLimit', () => {
  it.each([
    '429 Too Many Requests',
    'Error code: 429 - rate_limit_error',
    'You exceeded your current quota, please check your plan',
    '402 Payment Required',
    'RESOURCE_EXHAUSTED: Quota exceeded for quota metric',
    'Rate limit reached for gpt-5.4',
    'insufficient_quota',
  ])('recognises %s', (text) => expect(looksLikeRateLimit(text)).toBe(true));

  it.each([
    '500 Internal Server Error',
    'invalid x-api-key',
    'context length 4290 exceeded',
    'request 14290 failed',
  ])('does not mistake %s', (text) => expect(looksLikeRateLimit(text)).toBe(false));
});

describe('rateLimitWaitMs', () => {
  it('waits 30·2^n s plus up to 15 s of jitter', () => {
    expect(rateLimitWaitMs(0, () => 0)).toBe(30_000);
    expect(rateLimitWaitMs(1, () => 0)).toBe(60_000);
    expect(rateLimitWaitMs(2, () => 0)).toBe(120_000);
    expect(rateLimitWaitMs(0, () => 0.999_999)).toBe(44_999);
    expect(rateLimitWaitMs(1, () => 0.5)).toBe(67_500);
  });

  it('honours retry-after, within reason', () => {
    expect(rateLimitWaitMs(0, () => 0.9, 2_500)).toBe(2_500);
    expect(rateLimitWaitMs(1, () => 0.9, 0)).toBe(0);
    expect(rateLimitWaitMs(0, () => 0, 24 * 3600_000)).toBe(RATE_LIMIT_MAX_RETRY_AFTER_MS);
    expect(rateLimitWaitMs(0, () => 0, Number.NaN)).toBe(30_000);
  });
});

describe('retryAfterMsFromHeaders', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after-ms': '1500' }), now)).toBe(1500);
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(
      retryAfterMsFromHeaders(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 12:00:20 GMT' }), now),
    ).toBe(20_000);
    expect(
      retryAfterMsFromHeaders(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 11:00:00 GMT' }), now),
    ).toBe(0);
  });
  it('ignores absent or garbled values', () => {
    expect(retryAfterMsFromHeaders(undefined, now)).toBeUndefined();
    expect(retryAfterMsFromHeaders(new Headers(), now)).toBeUndefined();
    expect(retryAfterMsFromHeaders(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });
});
