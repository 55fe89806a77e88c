import { describe, expect, it } from 'vitest';
import { costUsd, DEFAULT_PRICE_TABLE, priceForModel, roundUsd, UNKNOWN_MODEL_PRICE } from './priceTable.ts';

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

describe('priceForModel', () => {
  it('finds exact, dated and router-prefixed names', () => {
    expect(priceForModel('claude-sonnet-5-5')).toEqual({
      price: DEFAULT_PRICE_TABLE['claude-sonnet-5-5'],
      known: true,
    });
    expect(priceForModel('claude-haiku-4-5-20251001').price).toBe(DEFAULT_PRICE_TABLE['claude-haiku-4-5']);
    expect(priceForModel('gpt-5.4-mini-2026-03-17').price).toBe(DEFAULT_PRICE_TABLE['gpt-5.4-mini']);
    expect(priceForModel('anthropic/claude-opus-5-5').price).toBe(DEFAULT_PRICE_TABLE['claude-opus-5-5']);
    expect(priceForModel('openai/GPT-5.6-Terra').price).toBe(DEFAULT_PRICE_TABLE['gpt-5.6-terra']);
  });

  it('prices an unknown model above every known one', () => {
    const unknown = priceForModel('llama-4-scout:17b');
    expect(unknown).toEqual({ price: UNKNOWN_MODEL_PRICE, known: false });
    for (const price of Object.values(DEFAULT_PRICE_TABLE)) {
      expect(UNKNOWN_MODEL_PRICE.input).toBeGreaterThan(price.input);
      expect(UNKNOWN_MODEL_PRICE.output).toBeGreaterThan(price.output);
      expect(UNKNOWN_MODEL_PRICE.cacheRead).toBeGreaterThanOrEqual(price.cacheRead);
      expect(UNKNOWN_MODEL_PRICE.cacheWrite).toBeGreaterThanOrEqual(price.cacheWrite);
    }
  });

  it('uses a caller table first', () => {
    const table = { 'qwen3-coder:30b': { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
    expect(priceForModel('qwen3-coder:30b', table)).toEqual({ price: table['qwen3-coder:30b'], known: true });
  });
});

describe('costUsd', () => {
  it('charges each kind of token at its own rate', () => {
    // claude-sonnet-5-5: 2 in, 10 out, 0.10 cache read, 2.50 cache write per million.
    const price = DEFAULT_PRICE_TABLE['claude-sonnet-5-5'];
    if (!price) throw new Error('missing price');
    expect(costUsd(usage(1_000_000, 0), price)).toBe(2);
    expect(costUsd(usage(0, 1_000_000), price)).toBe(10);
    expect(costUsd(usage(0, 0, 1_000_000), price)).toBe(0.1);
    expect(costUsd(usage(0, 0, 0, 1_000_000), price)).toBe(2.5);
    expect(costUsd(usage(1234, 567, 89, 10), price)).toBe(
      roundUsd((1234 * 2 + 567 * 10 + 89 * 0.1 + 10 * 2.5) / 1e6),
    );
  });

  it('switches a long prompt to the higher band where a model has one', () => {
    const haiku = DEFAULT_PRICE_TABLE['claude-haiku-5-5'];
    if (!haiku) throw new Error('missing price');
    expect(costUsd(usage(100_000, 1_000), haiku)).toBe(roundUsd((100_000 * 0.1 + 1_000 * 0.5) / 1e6));
    // Cache reads count towards the prompt size.
    expect(costUsd(usage(90_000, 1_000, 20_000), haiku)).toBe(
      roundUsd((90_000 * 0.5 + 1_000 * 2.5 + 20_000 * 0.05) / 1e6),
    );
  });

  it('rounds to a nano-dollar so sums compare exactly', () => {
    expect(roundUsd(0.1 + 0.2)).toBe(0.3);
  });
});
