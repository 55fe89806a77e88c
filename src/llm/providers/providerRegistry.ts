import type { ProviderKind } from '../config/providerKinds.ts';
import { createAnthropicProvider } from './anthropicProvider.ts';
import type { LlmProvider, ProviderOptions } from './LlmProvider.ts';
import { createOpenAiProvider } from './openAiProvider.ts';

/** One line per wire format; a new provider is a file plus its line here. */
export const PROVIDER_FACTORIES: Readonly<Record<ProviderKind, (options: ProviderOptions) => LlmProvider>> = {
  anthropic: createAnthropicProvider,
  openai: createOpenAiProvider,
  'openai-compatible': createOpenAiProvider,
};

export function createProvider(options: ProviderOptions): LlmProvider {
  return PROVIDER_FACTORIES[options.provider.kind](options);
}
