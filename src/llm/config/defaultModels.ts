import type { LlmRole } from '../llmRoles.ts';

/**
 * Current models per role: the strongest model where judgment decides the port (the fixer), a
 * mid-size one for plans, the smallest for prose and ranking. OpenAI-compatible servers host
 * whatever their owner loaded, so they have no defaults: the model comes from configuration.
 */
export const DEFAULT_MODELS: Readonly<Record<'anthropic' | 'openai', Readonly<Record<LlmRole, string>>>> = {
  anthropic: {
    planner: 'claude-sonnet-5-5',
    scout: 'claude-sonnet-5-5',
    fixer: 'claude-opus-5-5',
    summarizer: 'claude-haiku-5-5',
    curator: 'claude-haiku-5-5',
    optimizer: 'claude-sonnet-5-5',
  },
  openai: {
    planner: 'gpt-5.6-terra',
    scout: 'gpt-5.6-terra',
    fixer: 'gpt-5.6-sol',
    summarizer: 'gpt-5.6-luna',
    curator: 'gpt-5.6-luna',
    optimizer: 'gpt-5.6-terra',
  },
};

export const DEFAULT_LLM_TIMEOUT_MS = 120_000;
/** The SDKs' own retries (connection errors, 408/409/429/5xx with their backoff). */
export const DEFAULT_SDK_MAX_RETRIES = 2;
export const DEFAULT_MAX_REPAIR_TURNS = 2;
export const DEFAULT_MAX_TOKENS = 4096;
/** SPEC 2: `--cost-cap USD` defaults to 1.00. */
export const DEFAULT_COST_CAP_USD = 1;
