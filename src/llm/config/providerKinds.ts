/**
 * Names accepted for `LLM_PROVIDER`. Every name but `anthropic` and `openai` is an OpenAI-compatible
 * server; local servers get their usual loopback address so a base URL is optional for them.
 */
export type ProviderKind = 'anthropic' | 'openai' | 'openai-compatible';

interface ProviderName {
  kind: ProviderKind;
  defaultBaseUrl?: string;
  /** The variable that holds this server's key when it is not the SDK's own. */
  apiKeyEnv?: string;
}

export const PROVIDER_NAMES: Readonly<Record<string, ProviderName>> = {
  anthropic: { kind: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' },
  openai: { kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' },
  'openai-compatible': { kind: 'openai-compatible' },
  openrouter: { kind: 'openai-compatible', apiKeyEnv: 'OPENROUTER_API_KEY' },
  gemini: { kind: 'openai-compatible', apiKeyEnv: 'GEMINI_API_KEY' },
  ollama: { kind: 'openai-compatible', defaultBaseUrl: 'http://127.0.0.1:11434/v1' },
  llamacpp: { kind: 'openai-compatible', defaultBaseUrl: 'http://127.0.0.1:8080/v1' },
  'llama.cpp': { kind: 'openai-compatible', defaultBaseUrl: 'http://127.0.0.1:8080/v1' },
  vllm: { kind: 'openai-compatible', defaultBaseUrl: 'http://127.0.0.1:8000/v1' },
  lmstudio: { kind: 'openai-compatible', defaultBaseUrl: 'http://127.0.0.1:1234/v1' },
};

/** Values of `LLM_PROVIDER` that mean "no LLM". */
export const OFFLINE_PROVIDER_NAMES = new Set(['', 'none', 'offline', 'off']);
