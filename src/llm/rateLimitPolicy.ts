/**
 * The seed's rate-limit rule as an explicit policy: an error whose text looks like a rate limit
 * (429, "quota exceeded", 402, …) is retried; a call runs three times at most; the wait before
 * run n+1 is 30·2^n s plus up to 15 s of jitter, or the server's retry-after when it sent one.
 */
export const RATE_LIMIT_MAX_RUNS = 3;
export const RATE_LIMIT_BASE_WAIT_MS = 30_000;
export const RATE_LIMIT_MAX_JITTER_MS = 15_000;
/** A retry-after longer than this is not worth waiting for inside one port step. */
export const RATE_LIMIT_MAX_RETRY_AFTER_MS = 10 * 60_000;

const RATE_LIMIT_TEXT =
  /\b(429|402)\b|rate[\s_-]?limit|too many requests|quota|insufficient[\s_-]?(quota|credits?|balance)|payment required/i;

export function looksLikeRateLimit(text: string): boolean {
  return RATE_LIMIT_TEXT.test(text);
}

/** Wait before the run after `failedRun` (0-based). `random` returns [0, 1). */
export function rateLimitWaitMs(failedRun: number, random: () => number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.min(Math.ceil(retryAfterMs), RATE_LIMIT_MAX_RETRY_AFTER_MS);
  }
  return RATE_LIMIT_BASE_WAIT_MS * 2 ** failedRun + Math.floor(random() * RATE_LIMIT_MAX_JITTER_MS);
}

interface HeaderSource {
  get(name: string): string | null;
}

/** `retry-after-ms` (a common extension), else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMsFromHeaders(headers: HeaderSource | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const millis = headers.get('retry-after-ms');
  if (millis !== null && millis.trim() !== '') {
    const value = Number(millis);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
