import type { ResolvedProvider } from '../config/resolveLlmConfig.ts';
import type { LlmMessage } from '../LlmClient.ts';
import type { OutputSchema } from '../structuredOutput.ts';
import type { TokenUsage } from '../tokenUsage.ts';

export interface ProviderRequest {
  model: string;
  system?: string;
  messages: LlmMessage[];
  output?: OutputSchema;
  maxTokens: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ProviderReply {
  text: string;
  usage: TokenUsage;
  /** The model the server says answered (may carry a snapshot date). */
  model: string;
}

/** One HTTP exchange with a model API. Rejects with the SDK's error; the client classifies it. */
export interface LlmProvider {
  readonly name: string;
  send(request: ProviderRequest): Promise<ProviderReply>;
}

export interface ProviderOptions {
  provider: ResolvedProvider;
  maxRetries: number;
  timeoutMs: number;
  anthropicStructuredOutput: 'native' | 'instruction';
}
