type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses the seed's rate-limit rule owns (its text test also covers "quota" and 402). */
const POLICY_STATUSES = new Set([402, 429]);

/**
 * A `fetch` for the SDKs that marks rate-limit answers `x-should-retry: false` (a header both
 * SDKs obey before their own status rules). The SDKs then keep retrying connection errors, 408,
 * 409 and 5xx with their short backoff, while a rate limit goes straight to the seed's policy
 * (three runs, 30·2^n s waits or the server's retry-after) instead of being retried twice by
 * the SDK first and then again by the policy.
 */
export function leaveRateLimitsToPolicy(fetchImpl: Fetch = globalThis.fetch): Fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!POLICY_STATUSES.has(response.status)) return response;
    const headers = new Headers(response.headers);
    headers.set('x-should-retry', 'false');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
