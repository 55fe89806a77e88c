import type { LlmConfig } from '../llm/index.ts';
import { createLlmClient, loadLlmConfig } from '../llm/index.ts';
import { type DoctorCheck, passed, warned } from './DoctorCheck.ts';

export const LLM_PROBE_TIMEOUT_MS = 20_000;

export interface LlmFacts {
  provider: string | null;
  model?: string;
  baseUrl?: string;
  /** Why there is no provider (from the configuration). */
  offlineReason?: string;
  /** Whether a provider was asked for at all (LLM_PROVIDER, a key, or the config file). */
  requested: boolean;
  /** The one-token call's outcome. */
  reply?: { ok: boolean; outcome: string; message?: string; status?: number };
}

/** An LLM is optional: without one, or with one that does not answer, ports run deterministically. */
export function evaluateLlm(facts: LlmFacts): DoctorCheck[] {
  const id = 'llm';
  if (!facts.provider) {
    if (!facts.requested) return [passed(id, 'no LLM configured: ports run deterministically')];
    return [
      warned(
        id,
        `LLM not usable: ${facts.offlineReason ?? 'misconfigured'}; ports run deterministically`,
        'set the variable named above, or unset LLM_PROVIDER to run without an LLM',
      ),
    ];
  }
  const who = `${facts.provider}${facts.model ? ` (${facts.model})` : ''}`;
  if (facts.reply?.ok) return [passed(id, `LLM ${who} answers`)];
  const why = facts.reply
    ? `${facts.reply.outcome}${facts.reply.status ? ` HTTP ${facts.reply.status}` : ''}${facts.reply.message ? `: ${facts.reply.message}` : ''}`
    : 'not asked';
  const keyProblem = facts.reply?.status === 401 || facts.reply?.status === 403;
  return [
    warned(
      id,
      `LLM ${who} did not answer a one-token request (${why}); ports fall back to the deterministic repairs`,
      keyProblem
        ? "check the provider's API key variable (e.g. ANTHROPIC_API_KEY or OPENAI_API_KEY)"
        : `check that ${facts.baseUrl ?? 'the provider'} is reachable and the model exists (RVPORT_LLM_MODEL)`,
    ),
  ];
}

/** True when the offline reason says a provider was named but something is missing. */
function wasRequested(config: LlmConfig): boolean {
  const reason = config.offlineReason ?? '';
  return (
    config.provider !== null ||
    !/^no LLM provider configured|^LLM_PROVIDER is "(none|offline|off|)"/.test(reason)
  );
}

export async function gatherLlmFacts(env: NodeJS.ProcessEnv, home: string): Promise<LlmFacts> {
  const config = await loadLlmConfig({
    env,
    home,
    overrides: { maxRetries: 0, timeoutMs: LLM_PROBE_TIMEOUT_MS },
  });
  if (!config.provider) {
    return {
      provider: null,
      requested: wasRequested(config),
      ...(config.offlineReason ? { offlineReason: config.offlineReason } : {}),
    };
  }
  // The cheapest real call: one token from the model the scout role (the smallest) uses.
  const client = createLlmClient({ config });
  const model = config.models.scout;
  const result = await client.complete({
    role: 'scout',
    messages: [{ role: 'user', content: 'Reply with OK.' }],
    maxTokens: 1,
    timeoutMs: LLM_PROBE_TIMEOUT_MS,
  });
  return {
    provider: config.provider.name,
    model,
    ...(config.provider.baseUrl ? { baseUrl: config.provider.baseUrl } : {}),
    requested: true,
    reply: {
      ok: result.ok,
      outcome: result.outcome,
      ...(result.error?.message ? { message: result.error.message } : {}),
      ...(result.error?.status ? { status: result.error.status } : {}),
    },
  };
}
