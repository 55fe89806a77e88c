import { looksLikeRateLimit, retryAfterMsFromHeaders } from './rateLimitPolicy.ts';

export type ProviderFailureKind = 'rate_limited' | 'timeout' | 'aborted' | 'error';

/** A provider call that did not produce a reply, after the SDK's own retries. */
export interface ProviderFailure {
  kind: ProviderFailureKind;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

interface SdkErrorShape {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  headers?: unknown;
}

/**
 * Both SDKs are generated from the same template, so their errors share a shape: `status` and
 * `headers` on API errors, `APIConnectionTimeoutError` and `APIUserAbortError` by name. Checked by
 * shape, not class, so either SDK (or a fetch AbortError) classifies the same way.
 */
export function classifyProviderError(error: unknown, now: number): ProviderFailure {
  const shape = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorShape;
  // The SDKs do not set `name` on their error classes; the constructor's name identifies them.
  const ctor = typeof error === 'object' && error !== null ? error.constructor?.name : undefined;
  const name = ctor && ctor !== 'Error' ? ctor : typeof shape.name === 'string' ? shape.name : '';
  const message = typeof shape.message === 'string' ? shape.message : String(error);
  const status = typeof shape.status === 'number' ? shape.status : undefined;
  if (name === 'APIUserAbortError' || name === 'AbortError') return { kind: 'aborted', message };
  if (name === 'APIConnectionTimeoutError' || name === 'TimeoutError') return { kind: 'timeout', message };
  const headers =
    typeof shape.headers === 'object' &&
    shape.headers !== null &&
    typeof (shape.headers as { get?: unknown }).get === 'function'
      ? (shape.headers as { get(name: string): string | null })
      : undefined;
  const failure: ProviderFailure = { kind: 'error', message };
  if (status !== undefined) failure.status = status;
  if (looksLikeRateLimit(`${status ?? ''} ${message}`)) {
    failure.kind = 'rate_limited';
    const retryAfterMs = retryAfterMsFromHeaders(headers, now);
    if (retryAfterMs !== undefined) failure.retryAfterMs = retryAfterMs;
  }
  return failure;
}
