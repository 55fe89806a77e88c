/** The LLM layer's public API; everything not named here is internal. */

export { asAgentClient } from './asAgentClient.ts';
export type { CommandVerdict } from './commandGuard/CommandVerdict.ts';
export {
  type CommandRefusal,
  type CommandReview,
  type GuardMode,
  type GuardOptions,
  guardCommand,
  MAX_INSPECTION_COMMANDS,
  reviewProposedCommands,
} from './commandGuard/guardCommand.ts';
export { guardDiffInTree } from './commandGuard/guardDiffInTree.ts';
export { type DiffVerdict, guardUnifiedDiff } from './commandGuard/guardUnifiedDiff.ts';
export { DEFAULT_COST_CAP_USD, DEFAULT_MODELS } from './config/defaultModels.ts';
export {
  CONFIG_FILE_NAME,
  type LlmConfigFile,
  LlmConfigFileSchema,
  parseLlmConfigFile,
  readLlmConfigFile,
} from './config/llmConfigFile.ts';
export { PROVIDER_NAMES, type ProviderKind } from './config/providerKinds.ts';
export {
  type LlmConfig,
  type LlmConfigOverrides,
  loadLlmConfig,
  MODEL_ENV,
  type ResolvedProvider,
  resolveLlmConfig,
  roleModelEnv,
} from './config/resolveLlmConfig.ts';
export { type CreateLlmClientOptions, createLlmClient } from './createLlmClient.ts';
export { createOfflineLlmClient } from './createOfflineLlmClient.ts';
export { CostCapReachedError, isLlmError, LlmError, type LlmErrorCode } from './errors.ts';
export type {
  LlmClient,
  LlmMessage,
  LlmOutcome,
  LlmRequest,
  LlmResult,
  LlmTool,
  LlmToolCall,
  LlmTotals,
} from './LlmClient.ts';
export {
  createLlmCallLog,
  type LlmCallLog,
  type LlmCallRecord,
  type LlmExchangeOutcome,
  readLlmCallLog,
} from './llmCallLog.ts';
export { isLlmRole, LLM_ROLES, type LlmRole } from './llmRoles.ts';
export {
  costUsd,
  DEFAULT_PRICE_TABLE,
  type ModelPrice,
  type PriceTable,
  priceForModel,
  UNKNOWN_MODEL_PRICE,
} from './priceTable.ts';
export {
  type Excerpt,
  type ExcerptSet,
  type ExcerptSource,
  estimateTokens,
  excerptFiles,
  ROLE_PROMPT_BUDGETS,
  renderExcerpts,
  tailWithinBudget,
} from './promptBudget.ts';
export { looksLikeRateLimit, RATE_LIMIT_MAX_RUNS, rateLimitWaitMs } from './rateLimitPolicy.ts';
export { throwIfFailed } from './throwIfFailed.ts';
export type { TokenUsage } from './tokenUsage.ts';
