import { type Clock, systemClock } from '../engine/index.ts';
import { DEFAULT_MAX_TOKENS } from './config/defaultModels.ts';
import type { LlmConfig } from './config/resolveLlmConfig.ts';
import { createOfflineLlmClient } from './createOfflineLlmClient.ts';
import type { LlmClient, LlmMessage, LlmOutcome, LlmRequest, LlmResult, LlmTotals } from './LlmClient.ts';
import { createLlmCallLog, type LlmExchangeOutcome } from './llmCallLog.ts';
import { type LlmRole, toLlmRole } from './llmRoles.ts';
import { costUsd, priceForModel, roundUsd } from './priceTable.ts';
import { classifyProviderError } from './providerFailure.ts';
import { createProvider } from './providers/providerRegistry.ts';
import { RATE_LIMIT_MAX_RUNS, rateLimitWaitMs } from './rateLimitPolicy.ts';
import { outputSchemaFor, parseStructuredReply, repairPrompt } from './structuredOutput.ts';
import { addUsage, type TokenUsage, ZERO_USAGE } from './tokenUsage.ts';

export interface CreateLlmClientOptions {
  config: LlmConfig;
  /** Where each exchange is appended as one JSON line (the port's `OUT/NAME/llm-calls.jsonl`). */
  callLogPath?: string;
  /** Time for retry waits (the engine's clock; its `random` is not used: `random` below is). */
  clock?: Pick<Clock, 'now' | 'sleep'>;
  /** [0, 1); the rate-limit jitter. */
  random?: () => number;
  /** Dollars already spent by this port before a resume; they count towards the cap. */
  spentUsd?: number;
}

/**
 * The LLM client for a configuration: offline when no provider is configured, otherwise a client
 * that adds, around the provider's one HTTP exchange, the cost cap, the seed's rate-limit rule,
 * schema validation with repair turns, the price table and the call log.
 */
export function createLlmClient(options: CreateLlmClientOptions): LlmClient {
  const { config } = options;
  if (!config.provider) {
    return createOfflineLlmClient(config.offlineReason ?? 'no LLM provider configured', config.costCapUsd);
  }
  const provider = createProvider({
    provider: config.provider,
    maxRetries: config.maxRetries,
    timeoutMs: config.timeoutMs,
    anthropicStructuredOutput: config.anthropicStructuredOutput,
  });
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const log = options.callLogPath ? createLlmCallLog(options.callLogPath) : undefined;
  const totals: LlmTotals = { exchanges: 0, usage: { ...ZERO_USAGE }, costUsd: options.spentUsd ?? 0 };
  const costCapReached = () => totals.costUsd >= config.costCapUsd;

  async function complete<T>(request: LlmRequest<T>): Promise<LlmResult<T>> {
    const role: LlmRole = toLlmRole(request.role);
    const model = config.models[role];
    const started = clock.now();
    const output = request.schema ? outputSchemaFor(request.schema, request.schemaName ?? role) : undefined;
    const messages: LlmMessage[] = [...request.messages];
    const call = { usage: { ...ZERO_USAGE } as TokenUsage, costUsd: 0, exchanges: 0, repairTurns: 0 };

    const finish = (
      outcome: LlmOutcome,
      extra: Partial<Pick<LlmResult<T>, 'text' | 'value' | 'error' | 'toolCalls'>> = {},
    ): LlmResult<T> => ({
      outcome,
      ok: outcome === 'ok',
      text: '',
      ...extra,
      usage: call.usage,
      costUsd: call.costUsd,
      durationMs: clock.now() - started,
      role,
      provider: provider.name,
      model,
      exchanges: call.exchanges,
      repairTurns: call.repairTurns,
    });
    const capError = () => ({
      message: `LLM cost cap reached: $${totals.costUsd.toFixed(4)} of $${config.costCapUsd.toFixed(2)}`,
    });

    const record = async (
      outcome: LlmExchangeOutcome,
      exchangeStarted: number,
      usage: TokenUsage,
      cost: number,
      error?: string,
    ) => {
      call.exchanges += 1;
      call.usage = addUsage(call.usage, usage);
      call.costUsd = roundUsd(call.costUsd + cost);
      totals.exchanges += 1;
      totals.usage = addUsage(totals.usage, usage);
      totals.costUsd = roundUsd(totals.costUsd + cost);
      await log?.append({
        time: new Date(exchangeStarted).toISOString(),
        role,
        provider: provider.name,
        model,
        ...usage,
        costUsd: cost,
        durationMs: clock.now() - exchangeStarted,
        outcome,
        repairTurn: call.repairTurns,
        ...(error ? { error } : {}),
      });
    };

    if (costCapReached()) return finish('cost_cap', { error: capError() });

    let run = 0;
    for (;;) {
      if (request.signal?.aborted) return finish('aborted', { error: { message: 'aborted by the caller' } });
      const exchangeStarted = clock.now();
      let reply: Awaited<ReturnType<typeof provider.send>>;
      try {
        reply = await provider.send({
          model,
          messages,
          maxTokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
          timeoutMs: request.timeoutMs ?? config.timeoutMs,
          ...(request.system ? { system: request.system } : {}),
          ...(output ? { output } : {}),
          ...(request.tools?.length ? { tools: request.tools } : {}),
          ...(request.signal ? { signal: request.signal } : {}),
        });
      } catch (error) {
        const failure = classifyProviderError(error, clock.now());
        if (request.signal?.aborted) failure.kind = 'aborted';
        await record(failure.kind, exchangeStarted, ZERO_USAGE, 0, failure.message);
        const errorInfo = { message: failure.message, ...(failure.status ? { status: failure.status } : {}) };
        if (failure.kind !== 'rate_limited' || run + 1 >= RATE_LIMIT_MAX_RUNS)
          return finish(failure.kind, { error: errorInfo });
        try {
          await clock.sleep(rateLimitWaitMs(run, random, failure.retryAfterMs), request.signal);
        } catch {
          return finish('aborted', {
            error: { message: 'aborted by the caller while waiting out a rate limit' },
          });
        }
        run += 1;
        continue;
      }

      const answered = priceForModel(reply.model, config.prices);
      const price = answered.known ? answered.price : priceForModel(model, config.prices).price;
      const cost = costUsd(reply.usage, price);
      if (reply.toolCalls?.length) {
        // Not the answer yet: the caller runs the tools and asks again.
        await record('ok', exchangeStarted, reply.usage, cost);
        return finish('ok', { text: reply.text, toolCalls: reply.toolCalls });
      }
      if (!request.schema) {
        await record('ok', exchangeStarted, reply.usage, cost);
        return finish('ok', { text: reply.text });
      }
      const parsed = parseStructuredReply(reply.text, request.schema);
      if (parsed.ok) {
        await record('ok', exchangeStarted, reply.usage, cost);
        return finish('ok', { text: reply.text, value: parsed.value });
      }
      await record('invalid', exchangeStarted, reply.usage, cost, parsed.problems.join('; '));
      if (call.repairTurns >= config.maxRepairTurns) {
        return finish('invalid', {
          text: reply.text,
          error: { message: 'the reply did not match the schema', problems: parsed.problems },
        });
      }
      if (costCapReached()) return finish('cost_cap', { text: reply.text, error: capError() });
      messages.push(
        { role: 'assistant', content: reply.text === '' ? '(empty reply)' : reply.text },
        { role: 'user', content: repairPrompt(parsed.problems) },
      );
      call.repairTurns += 1;
      run = 0;
    }
  }

  return {
    provider: provider.name,
    offline: false,
    costCapUsd: config.costCapUsd,
    modelFor: (role) => config.models[toLlmRole(role)],
    complete,
    totals: () => ({ exchanges: totals.exchanges, usage: { ...totals.usage }, costUsd: totals.costUsd }),
    costCapReached,
  };
}
