import type { z } from 'zod';
import type { LlmRole } from './llmRoles.ts';
import type { TokenUsage } from './tokenUsage.ts';

export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** A tool the model may call instead of answering (the engine's AgentNode: read-only sandbox commands). */
export interface LlmTool {
  name: string;
  description: string;
  /** JSON Schema of the input; a free-form object when absent. */
  inputSchema?: Record<string, unknown>;
}

export interface LlmToolCall {
  id?: string;
  name: string;
  input: unknown;
}

export interface LlmRequest<T = unknown> {
  /** One of `LLM_ROLES`; free-form names (from a workflow file's AgentNode) use the planner's model. */
  role?: LlmRole | string;
  system?: string;
  messages: LlmMessage[];
  /** When given, the reply must be JSON that this schema accepts; `value` carries the parsed result. */
  schema?: z.ZodType<T>;
  /** Names the schema for providers that want one (OpenAI's `json_schema.name`). */
  schemaName?: string;
  /** When the model calls tools, the result carries `toolCalls` and no validated `value` yet. */
  tools?: LlmTool[];
  maxTokens?: number;
  /** Per-request limit; the configured time-out otherwise. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * How a call ended. Everything but `ok` means "use your fallback"; `cost_cap` additionally means
 * the port must escalate; `offline` means no provider is configured (or `--offline`).
 */
export type LlmOutcome =
  | 'ok'
  | 'offline'
  | 'cost_cap'
  | 'invalid'
  | 'rate_limited'
  | 'timeout'
  | 'aborted'
  | 'error';

export interface LlmResult<T = unknown> {
  outcome: LlmOutcome;
  ok: boolean;
  /** The last reply's text ('' when there was none). */
  text: string;
  /** The validated answer, when a schema was given and the outcome is `ok`. */
  value?: T;
  /** Tool calls of the last reply, when the request offered tools and the model used them. */
  toolCalls?: LlmToolCall[];
  /** Summed over every exchange of this call, repair turns and rate-limited runs included. */
  usage: TokenUsage;
  costUsd: number;
  durationMs: number;
  role: LlmRole;
  provider: string | null;
  model: string | null;
  /** HTTP exchanges made (each is one line in llm-calls.jsonl). */
  exchanges: number;
  repairTurns: number;
  error?: { message: string; status?: number; problems?: string[] };
}

export interface LlmTotals {
  exchanges: number;
  usage: TokenUsage;
  costUsd: number;
}

/**
 * What rvport's nodes call. `complete` never rejects because of the provider: failures come back
 * as an outcome so every caller can take its fallback. It satisfies the engine AgentNode's
 * `{ complete(request): Promise<{ text, usage?, costUsd? }> }`.
 */
export interface LlmClient {
  /** The provider label (`anthropic`, `openai`, `ollama`, …), or null when offline. */
  readonly provider: string | null;
  readonly offline: boolean;
  /** Why the client is offline, for logs and reports. */
  readonly offlineReason?: string;
  readonly costCapUsd: number;
  modelFor(role: LlmRole | string | undefined): string | null;
  complete<T = unknown>(request: LlmRequest<T>): Promise<LlmResult<T>>;
  totals(): LlmTotals;
  costCapReached(): boolean;
}
