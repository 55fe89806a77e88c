import type Anthropic from '@anthropic-ai/sdk';
import { jsonInstruction, relaxedForDecoding } from '../structuredOutput.ts';
import {
  FREE_FORM_TOOL_INPUT,
  type LlmProvider,
  type ProviderOptions,
  type ProviderRequest,
} from './LlmProvider.ts';
import { leaveRateLimitsToPolicy } from './leaveRateLimitsToPolicy.ts';

/**
 * Anthropic Messages API. Structured answers use the API's own structured output
 * (`output_config.format`, constrained decoding): it works with the current models' adaptive
 * thinking, where a forced tool choice is refused, and the reply is plain JSON text that the
 * shared validator and repair loop handle like any other provider's. Gateways that do not know
 * `output_config` get `anthropicStructuredOutput: "instruction"`: the schema goes into the system
 * prompt instead. Either way every reply is validated; the API's guarantee is not trusted blindly.
 */
export function createAnthropicProvider(options: ProviderOptions): LlmProvider {
  // The SDK is imported at the first request: a run that answers from the recipe cache, or never
  // needs the model, does not pay for loading it.
  let client: Promise<Anthropic> | undefined;
  const connect = () =>
    (client ??= import('@anthropic-ai/sdk').then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: options.provider.apiKey ?? null,
          // null, not undefined: the SDK would otherwise read ANTHROPIC_BASE_URL from process.env
          // itself, behind the back of the injected environment.
          baseURL: options.provider.baseUrl ?? null,
          maxRetries: options.maxRetries,
          fetch: leaveRateLimitsToPolicy(),
          timeout: options.timeoutMs,
        }),
    ));
  const native = options.anthropicStructuredOutput === 'native';

  return {
    name: options.provider.name,
    async send(request: ProviderRequest) {
      const system = [request.system, request.output ? jsonInstruction(request.output, !native) : undefined]
        .filter((part): part is string => Boolean(part))
        .join('\n\n');
      const message = await (await connect()).messages.create(
        {
          model: request.model,
          max_tokens: request.maxTokens,
          ...(system ? { system } : {}),
          messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
          ...(request.output && native
            ? {
                output_config: {
                  format: {
                    type: 'json_schema' as const,
                    schema: relaxedForDecoding(request.output.jsonSchema) as Record<string, unknown>,
                  },
                },
              }
            : {}),
          ...(request.tools?.length
            ? {
                tools: request.tools.map((tool) => ({
                  name: tool.name,
                  description: tool.description,
                  input_schema: (tool.inputSchema ??
                    FREE_FORM_TOOL_INPUT) as Anthropic.Messages.Tool.InputSchema,
                })),
              }
            : {}),
        },
        { timeout: request.timeoutMs, ...(request.signal ? { signal: request.signal } : {}) },
      );
      const text = message.content
        .map((block) => (block.type === 'text' ? block.text : ''))
        .join('')
        .trim();
      const toolCalls = message.content.flatMap((block) =>
        block.type === 'tool_use' ? [{ id: block.id, name: block.name, input: block.input }] : [],
      );
      return {
        text,
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
        model: message.model,
        usage: {
          inputTokens: message.usage.input_tokens,
          outputTokens: message.usage.output_tokens,
          cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
          cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
        },
      };
    },
  };
}
