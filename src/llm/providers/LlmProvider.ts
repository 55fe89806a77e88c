import type { ResolvedProvider } from '../config/resolveLlmConfig.ts';
import type { LlmMessage, LlmTool, LlmToolCall } from '../LlmClient.ts';
import type { OutputSchema } from '../structuredOutput.ts';
import type { TokenUsage } from '../tokenUsage.ts';

export interface ProviderRequest {
  model: string;
  system?: string;
  messages: LlmMessage[];
  output?: OutputSchema;
  tools?: LlmTool[];
  maxTokens: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ProviderReply {
  text: string;
  usage: TokenUsage;
  toolCalls?: LlmToolCall[];
  /** The model the server says answered (may carry a snapshot date). */
  model: string;
}

/** One HTTP exchange with a model API. Rejects with the SDK's error; the client classifies it. */
export interface LlmProvider {
  readonly name: string;
  send(request: ProviderRequest): Promise<ProviderReply>;
}

/** The input schema of a tool that did not bring one. */
export const FREE_FORM_TOOL_INPUT: Record<string, unknown> = { type: 'object', additionalProperties: true };

export interface ProviderOptions {
  provider: ResolvedProvider;
  maxRetries: number;
  timeoutMs: number;
  anthropicStructuredOutput: 'native' | 'instruction';
}
