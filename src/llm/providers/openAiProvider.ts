import type OpenAI from 'openai';
import type { LlmToolCall } from '../LlmClient.ts';
import {
  FREE_FORM_TOOL_INPUT,
  type LlmProvider,
  type ProviderOptions,
  type ProviderRequest,
} from './LlmProvider.ts';
import { leaveRateLimitsToPolicy } from './leaveRateLimitsToPolicy.ts';

/**
 * OpenAI chat completions, and every server that speaks them (OpenRouter, Gemini's compatible
 * endpoint, Ollama, llama.cpp, vLLM, LM Studio) through the base URL. Structured answers travel
 * as `response_format: { type: "json_schema" }`, strict when the schema allows it.
 */
export function createOpenAiProvider(options: ProviderOptions): LlmProvider {
  const compatible = options.provider.kind === 'openai-compatible';
  // The SDK is imported at the first request: a run that answers from the recipe cache, or never
  // needs the model, does not pay for loading it.
  let client: Promise<OpenAI> | undefined;
  const connect = () =>
    (client ??= import('openai').then(
      ({ default: Sdk }) =>
        new Sdk({
          // Local servers need no key, but the SDK refuses to start without one.
          apiKey: options.provider.apiKey ?? 'no-key',
          baseURL: options.provider.baseUrl ?? null,
          maxRetries: options.maxRetries,
          fetch: leaveRateLimitsToPolicy(),
          timeout: options.timeoutMs,
        }),
    ));

  return {
    name: options.provider.name,
    async send(request: ProviderRequest) {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        ...(request.system ? [{ role: 'system' as const, content: request.system }] : []),
        ...request.messages.map((m) => ({ role: m.role, content: m.content })),
      ];
      const completion = await (await connect()).chat.completions.create(
        {
          model: request.model,
          messages,
          // OpenAI's current models take only max_completion_tokens; most compatible servers
          // still read only max_tokens.
          ...(compatible ? { max_tokens: request.maxTokens } : { max_completion_tokens: request.maxTokens }),
          ...(request.output
            ? {
                response_format: {
                  type: 'json_schema' as const,
                  json_schema: {
                    name: request.output.name,
                    schema: request.output.jsonSchema,
                    strict: request.output.strict,
                  },
                },
              }
            : {}),
          ...(request.tools?.length
            ? {
                tools: request.tools.map((tool) => ({
                  type: 'function' as const,
                  function: {
                    name: tool.name,
                    description: tool.description,
                    parameters: tool.inputSchema ?? FREE_FORM_TOOL_INPUT,
                  },
                })),
              }
            : {}),
        },
        { timeout: request.timeoutMs, ...(request.signal ? { signal: request.signal } : {}) },
      );
      const choice = completion.choices[0];
      const usage = completion.usage;
      const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
      const toolCalls: LlmToolCall[] = (choice?.message.tool_calls ?? []).flatMap((call) =>
        call.type === 'function'
          ? [{ id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) }]
          : [],
      );
      return {
        ...(toolCalls.length > 0 ? { toolCalls } : {}),
        text: (choice?.message.content ?? choice?.message.refusal ?? '').trim(),
        model: completion.model,
        usage: {
          inputTokens: (usage?.prompt_tokens ?? 0) - cached,
          outputTokens: usage?.completion_tokens ?? 0,
          cacheReadTokens: cached,
          cacheWriteTokens: 0,
        },
      };
    },
  };
}

/** Tool arguments arrive as a JSON string; a model that wrote broken JSON gets it back as text. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
