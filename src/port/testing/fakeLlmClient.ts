import type { LlmClient, LlmOutcome, LlmRequest, LlmResult } from '../../llm/index.ts';

/** One scripted result of the fake client: an answer (validated by the request's schema) or an outcome. */
export type FakeLlmAnswer =
  | { value: unknown; usage?: { input: number; output: number }; costUsd?: number }
  | { outcome: Exclude<LlmOutcome, 'ok'>; usage?: { input: number; output: number }; costUsd?: number };

export interface FakeLlmClient extends LlmClient {
  readonly requests: LlmRequest[];
}

/**
 * An `LlmClient` for node tests: each call takes the next scripted answer and records the
 * request. A scripted value goes through the request's schema as a real reply would (a value the
 * schema refuses comes back `invalid`). An empty script answers `error`.
 */
export function fakeLlmClient(
  answers: FakeLlmAnswer[],
  options: { offline?: boolean; costCapUsd?: number } = {},
): FakeLlmClient {
  const queue = [...answers];
  const requests: LlmRequest[] = [];
  let spent = 0;
  let exchanges = 0;
  return {
    requests,
    provider: options.offline ? null : 'fake',
    offline: options.offline ?? false,
    costCapUsd: options.costCapUsd ?? 1,
    modelFor: () => (options.offline ? null : 'fake-model'),
    totals: () => ({
      exchanges,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costUsd: spent,
    }),
    costCapReached: () => spent >= (options.costCapUsd ?? 1),
    async complete<T>(request: LlmRequest<T>): Promise<LlmResult<T>> {
      requests.push(request as LlmRequest);
      const answer = queue.shift() ?? { outcome: 'error' as const };
      const usage = answer.usage ?? { input: 0, output: 0 };
      const costUsd = answer.costUsd ?? 0;
      const ran = !('outcome' in answer) || !['offline', 'cost_cap'].includes(answer.outcome);
      if (ran) {
        spent += costUsd;
        exchanges += 1;
      }
      const base = {
        text: 'value' in answer ? JSON.stringify(answer.value) : '',
        usage: {
          inputTokens: ran ? usage.input : 0,
          outputTokens: ran ? usage.output : 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
        },
        costUsd: ran ? costUsd : 0,
        durationMs: 1,
        role: (request.role ?? 'planner') as LlmResult['role'],
        provider: 'fake',
        model: 'fake-model',
        exchanges: ran ? 1 : 0,
        repairTurns: 0,
      };
      if ('outcome' in answer)
        return { ...base, outcome: answer.outcome, ok: false, error: { message: `fake ${answer.outcome}` } };
      const parsed = request.schema
        ? request.schema.safeParse(answer.value)
        : { success: true, data: answer.value };
      if (!parsed.success)
        return {
          ...base,
          outcome: 'invalid',
          ok: false,
          error: { message: 'the reply does not match the schema' },
        };
      return { ...base, outcome: 'ok', ok: true, value: parsed.data as T };
    },
  };
}
