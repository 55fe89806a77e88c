import { errorMessage } from './errors.ts';

/** Per-node retry policy for ordinary errors. The default runs a node once. */
export interface RetryPolicy {
  /** Runs in total, the first included. */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
  /** Fraction of the delay that is randomised, 0..1 (0.2 → ±20 %). */
  jitter: number;
  /** Which errors to retry; all of them when absent. */
  retryOn?: (error: unknown) => boolean;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 1,
  initialDelayMs: 1_000,
  maxDelayMs: 60_000,
  factor: 2,
  jitter: 0.2,
};

/**
 * The seed's rate-limit rule, applied to every node whatever its policy: an error that looks
 * like a rate limit runs the node again, three runs at most, after 30·2^n s plus up to 15 s.
 */
export const RATE_LIMIT_RULE = { maxRuns: 3, baseDelayMs: 30_000, maxJitterMs: 15_000 } as const;

const RATE_LIMIT_PATTERN = /\b429\b|\b402\b|rate[ _-]?limit|quota exceeded|too many requests/i;

export function isRateLimitError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 429 || status === 402) return true;
  return RATE_LIMIT_PATTERN.test(errorMessage(error));
}

export interface RetryDecision {
  delayMs: number;
  reason: 'rate-limit' | 'policy';
}

/**
 * Whether to run a node again after its `failedRuns`-th failed run (1-based), and after how long.
 * Pure: randomness comes in as `random` in [0, 1).
 */
export function nextRetry(
  error: unknown,
  failedRuns: number,
  policy: RetryPolicy,
  random: number,
): RetryDecision | null {
  if (isRateLimitError(error)) {
    if (failedRuns >= RATE_LIMIT_RULE.maxRuns) return null;
    const delayMs =
      RATE_LIMIT_RULE.baseDelayMs * 2 ** (failedRuns - 1) + random * RATE_LIMIT_RULE.maxJitterMs;
    return { delayMs: Math.round(delayMs), reason: 'rate-limit' };
  }
  if (failedRuns >= policy.maxAttempts) return null;
  if (policy.retryOn && !policy.retryOn(error)) return null;
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** (failedRuns - 1));
  const spread = 1 - policy.jitter + 2 * policy.jitter * random;
  return { delayMs: Math.round(Math.min(policy.maxDelayMs, base * spread)), reason: 'policy' };
}
