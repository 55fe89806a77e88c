import type { AgentClient, AgentReply, AgentRequest } from '../engine/index.ts';
import type { LlmClient } from './LlmClient.ts';
import { throwIfFailed } from './throwIfFailed.ts';

/**
 * The LLM layer as the engine's AgentNode client: a call that did not answer (offline, cost cap,
 * invalid, time-out, provider error) throws, so the node fails with the reason and its retry
 * policy can react, instead of storing an empty answer.
 */
export function asAgentClient(llm: LlmClient): AgentClient {
  return {
    async complete(request: AgentRequest): Promise<AgentReply> {
      const result = throwIfFailed(
        await llm.complete({
          ...(request.role ? { role: request.role } : {}),
          ...(request.system ? { system: request.system } : {}),
          messages: request.messages,
          ...(request.tools?.length ? { tools: request.tools } : {}),
          ...(request.signal ? { signal: request.signal } : {}),
        }),
        llm,
      );
      return {
        text: result.text,
        usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
        costUsd: result.costUsd,
        ...(result.toolCalls?.length ? { toolCalls: result.toolCalls } : {}),
      };
    },
  };
}
