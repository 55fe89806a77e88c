import { rvportHome } from '../../config/rvportHome.ts';
import { LLM_ROLES, type LlmRole } from '../llmRoles.ts';
import { DEFAULT_PRICE_TABLE, type ModelPrice, type PriceTable } from '../priceTable.ts';
import {
  DEFAULT_COST_CAP_USD,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_MAX_REPAIR_TURNS,
  DEFAULT_MODELS,
  DEFAULT_SDK_MAX_RETRIES,
} from './defaultModels.ts';
import { type LlmConfigFile, readLlmConfigFile } from './llmConfigFile.ts';
import { OFFLINE_PROVIDER_NAMES, PROVIDER_NAMES, type ProviderKind } from './providerKinds.ts';

export interface ResolvedProvider {
  kind: ProviderKind;
  /** What the user called it (`ollama`, `openrouter`, …); logged with every call. */
  name: string;
  apiKey?: string;
  baseUrl?: string;
}

export interface LlmConfig {
  /** null: offline, every call reports "no LLM". */
  provider: ResolvedProvider | null;
  offlineReason?: string;
  models: Record<LlmRole, string>;
  costCapUsd: number;
  timeoutMs: number;
  maxRetries: number;
  maxRepairTurns: number;
  anthropicStructuredOutput: 'native' | 'instruction';
  prices: PriceTable;
}

/** What command-line flags can set; they win over the environment and the file. */
export interface LlmConfigOverrides {
  offline?: boolean;
  provider?: string;
  baseUrl?: string;
  model?: string;
  models?: Partial<Record<LlmRole, string>>;
  costCapUsd?: number;
  timeoutMs?: number;
  maxRetries?: number;
  maxRepairTurns?: number;
}

/** `RVPORT_LLM_MODEL` for every role, `RVPORT_LLM_MODEL_FIXER` (etc.) for one. */
export const MODEL_ENV = 'RVPORT_LLM_MODEL';
export const roleModelEnv = (role: LlmRole): string => `${MODEL_ENV}_${role.toUpperCase()}`;

const nonEmpty = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== '' ? value.trim() : undefined;

/**
 * Pure: defaults < config file < environment < overrides. Never throws for a missing key or
 * provider — that yields an offline configuration with the reason.
 */
export function resolveLlmConfig(input: {
  env: NodeJS.ProcessEnv;
  file?: LlmConfigFile;
  overrides?: LlmConfigOverrides;
}): LlmConfig {
  const { env, file = {}, overrides = {} } = input;
  const settings = {
    costCapUsd: overrides.costCapUsd ?? file.costCapUsd ?? DEFAULT_COST_CAP_USD,
    timeoutMs: overrides.timeoutMs ?? file.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    maxRetries: overrides.maxRetries ?? file.maxRetries ?? DEFAULT_SDK_MAX_RETRIES,
    maxRepairTurns: overrides.maxRepairTurns ?? file.maxRepairTurns ?? DEFAULT_MAX_REPAIR_TURNS,
    anthropicStructuredOutput: file.anthropicStructuredOutput ?? 'native',
    prices: mergePrices(file.prices),
  } as const;
  const explicitModels = resolveExplicitModels(env, file, overrides);
  const offline = (reason: string): LlmConfig => ({
    ...settings,
    provider: null,
    offlineReason: reason,
    models: fillModels(explicitModels, DEFAULT_MODELS.anthropic),
  });

  if (overrides.offline) return offline('offline mode requested');
  const providerName = pickProviderName(env, file, overrides);
  if (providerName === undefined) {
    return offline('no LLM provider configured (set LLM_PROVIDER and the provider key)');
  }
  if (OFFLINE_PROVIDER_NAMES.has(providerName)) return offline(`LLM_PROVIDER is "${providerName}"`);
  const known = PROVIDER_NAMES[providerName];
  if (!known) {
    return offline(
      `unknown LLM provider "${providerName}" (known: ${Object.keys(PROVIDER_NAMES).join(', ')}, none)`,
    );
  }

  const baseUrlEnv = known.kind === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL';
  const baseUrl =
    nonEmpty(overrides.baseUrl) ?? nonEmpty(env[baseUrlEnv]) ?? file.baseUrl ?? known.defaultBaseUrl;
  const keyEnvs = [
    file.apiKeyEnv,
    known.apiKeyEnv,
    known.kind === 'anthropic' ? undefined : 'OPENAI_API_KEY',
  ];
  const apiKey = keyEnvs.map((name) => (name ? nonEmpty(env[name]) : undefined)).find(Boolean);

  if (known.kind !== 'openai-compatible' && !apiKey) {
    return offline(`LLM_PROVIDER is ${providerName} but ${keyEnvs.find(Boolean)} is not set`);
  }
  if (known.kind === 'openai-compatible' && !baseUrl) {
    return offline(
      `LLM_PROVIDER is ${providerName}: set OPENAI_BASE_URL to the server's OpenAI-compatible URL`,
    );
  }
  let models: Record<LlmRole, string>;
  if (known.kind === 'openai-compatible') {
    const someModel = Object.values(explicitModels).find(Boolean);
    if (!someModel) {
      return offline(
        `LLM_PROVIDER is ${providerName}: set ${MODEL_ENV} (or a model per role) to a model it serves`,
      );
    }
    models = fillModels(
      explicitModels,
      Object.fromEntries(LLM_ROLES.map((role) => [role, someModel])) as Record<LlmRole, string>,
    );
  } else {
    models = fillModels(explicitModels, DEFAULT_MODELS[known.kind]);
  }
  const provider: ResolvedProvider = { kind: known.kind, name: providerName };
  if (apiKey) provider.apiKey = apiKey;
  if (baseUrl) provider.baseUrl = baseUrl;
  return { ...settings, provider, models };
}

function pickProviderName(
  env: NodeJS.ProcessEnv,
  file: LlmConfigFile,
  overrides: LlmConfigOverrides,
): string | undefined {
  const named = overrides.provider ?? env.LLM_PROVIDER ?? file.provider;
  if (named !== undefined) return named.trim().toLowerCase();
  // No explicit provider: the keys present say which one the user meant.
  if (nonEmpty(env.ANTHROPIC_API_KEY)) return 'anthropic';
  if (nonEmpty(env.OPENAI_API_KEY)) return 'openai';
  if (nonEmpty(env.OPENAI_BASE_URL)) return 'openai-compatible';
  return undefined;
}

function resolveExplicitModels(
  env: NodeJS.ProcessEnv,
  file: LlmConfigFile,
  overrides: LlmConfigOverrides,
): Partial<Record<LlmRole, string>> {
  const models: Partial<Record<LlmRole, string>> = {};
  for (const role of LLM_ROLES) {
    const model =
      nonEmpty(overrides.models?.[role]) ??
      nonEmpty(overrides.model) ??
      nonEmpty(env[roleModelEnv(role)]) ??
      nonEmpty(env[MODEL_ENV]) ??
      file.models?.[role] ??
      file.model;
    if (model) models[role] = model;
  }
  return models;
}

function fillModels(
  explicit: Partial<Record<LlmRole, string>>,
  defaults: Readonly<Record<LlmRole, string>>,
): Record<LlmRole, string> {
  return Object.fromEntries(LLM_ROLES.map((role) => [role, explicit[role] ?? defaults[role]])) as Record<
    LlmRole,
    string
  >;
}

function mergePrices(extra: LlmConfigFile['prices']): PriceTable {
  if (!extra) return DEFAULT_PRICE_TABLE;
  const merged: Record<string, ModelPrice> = { ...DEFAULT_PRICE_TABLE };
  for (const [model, price] of Object.entries(extra)) {
    merged[model] = {
      input: price.input,
      output: price.output,
      cacheRead: price.cacheRead ?? price.input,
      cacheWrite: price.cacheWrite ?? price.input * 1.25,
    };
  }
  return merged;
}

/** Reads `RVPORT_HOME/config.json` (if any) and resolves against the environment and the flags. */
export async function loadLlmConfig(
  options: { env?: NodeJS.ProcessEnv; home?: string; overrides?: LlmConfigOverrides } = {},
): Promise<LlmConfig> {
  const env = options.env ?? process.env;
  const file = await readLlmConfigFile(options.home ?? rvportHome(env));
  return resolveLlmConfig({ env, file, ...(options.overrides ? { overrides: options.overrides } : {}) });
}
