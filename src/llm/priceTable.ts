import { promptTokens, type TokenUsage } from './tokenUsage.ts';

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Some models bill every token of a long prompt at a higher band. */
  longPrompt?: { aboveTokens: number; price: Omit<ModelPrice, 'longPrompt'> };
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * A model the table does not know is priced above the most expensive known one, so an unknown
 * (or misspelt) model reaches the cost cap early rather than late. Local servers whose models
 * cost nothing get a `prices` entry in the config file.
 */
export const UNKNOWN_MODEL_PRICE: ModelPrice = Object.freeze({
  input: 30,
  output: 150,
  cacheRead: 30,
  cacheWrite: 37.5,
});

// Cache writes are the 5-minute rate (1.25 x input) — the only cache lifetime rvport asks for.
const anthropic = (input: number, output: number, cacheRead: number): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite: input * 1.25,
});
// OpenAI bills cache reads at a tenth of input on the GPT-5 family; writes (GPT-5.6) at 1.25 x input.
const openai = (input: number, output: number, cacheRead = input / 10): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite: input * 1.25,
});

/** Published list prices, November 2026 (platform.claude.com and OpenAI pricing pages). */
export const DEFAULT_PRICE_TABLE: PriceTable = Object.freeze({
  'claude-fable-5-1': anthropic(10, 50, 0.25),
  'claude-mythos-5-1': anthropic(10, 50, 0.25),
  'claude-fable-5-2': anthropic(10, 50, 0.25),
  'claude-mythos-5-2': anthropic(10, 50, 0.25),
  'claude-fable-5': anthropic(10, 50, 1),
  'claude-mythos-5': anthropic(10, 50, 1),
  'claude-opus-5-5': anthropic(4, 20, 0.2),
  'claude-opus-5': anthropic(5, 25, 0.5),
  'claude-opus-4-8': anthropic(5, 25, 0.5),
  'claude-opus-4-7': anthropic(5, 25, 0.5),
  'claude-opus-4-6': anthropic(5, 25, 0.5),
  'claude-opus-4-5': anthropic(5, 25, 0.5),
  'claude-opus-4-1': anthropic(15, 75, 1.5),
  'claude-sonnet-5-5': anthropic(2, 10, 0.1),
  'claude-sonnet-5': anthropic(2, 10, 0.2),
  'claude-sonnet-4-6': anthropic(3, 15, 0.3),
  'claude-sonnet-4-5': anthropic(3, 15, 0.3),
  'claude-sonnet-4': anthropic(3, 15, 0.3),
  'claude-haiku-5-5': {
    ...anthropic(0.1, 0.5, 0.01),
    longPrompt: { aboveTokens: 100_000, price: anthropic(0.5, 2.5, 0.05) },
  },
  'claude-haiku-4-5': anthropic(1, 5, 0.1),
  'gpt-5.6-sol': openai(5, 30),
  'gpt-5.6-terra': openai(2.5, 15),
  'gpt-5.6-luna': openai(1, 6),
  'gpt-5.5': openai(5, 30),
  'gpt-5.4': openai(2.5, 15),
  'gpt-5.4-mini': openai(0.75, 4.5),
  'gpt-5.4-nano': openai(0.2, 1.25),
  'gpt-5.2': openai(1.75, 14),
  'gpt-5.1': openai(1.25, 10),
  'gpt-5': openai(1.25, 10),
  'gpt-5-mini': openai(0.25, 2),
  'gpt-5-nano': openai(0.05, 0.4),
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
  'gpt-4o': openai(2.5, 10, 1.25),
  'gpt-4o-mini': openai(0.15, 0.6, 0.075),
});

/**
 * The price of a model as a provider names it: exact name first, then without a router prefix
 * (`anthropic/claude-sonnet-5-5` on OpenRouter) and without a snapshot date
 * (`claude-haiku-4-5-20251001`, `gpt-5.4-mini-2026-03-17`).
 */
export function priceForModel(
  model: string,
  table: PriceTable = DEFAULT_PRICE_TABLE,
): { price: ModelPrice; known: boolean } {
  for (const candidate of modelNameCandidates(model)) {
    const price = table[candidate];
    if (price) return { price, known: true };
  }
  return { price: UNKNOWN_MODEL_PRICE, known: false };
}

function modelNameCandidates(model: string): string[] {
  const name = model.trim().toLowerCase();
  const unprefixed = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
  const undated = (value: string) => value.replace(/-(\d{8}|\d{4}-\d{2}-\d{2})$/, '');
  return [...new Set([model, name, unprefixed, undated(name), undated(unprefixed)])];
}

/** Dollars for one exchange. Rounded to a nano-dollar so sums in JSON stay exact enough to compare. */
export function costUsd(usage: TokenUsage, price: ModelPrice): number {
  const band =
    price.longPrompt && promptTokens(usage) > price.longPrompt.aboveTokens ? price.longPrompt.price : price;
  const micro =
    usage.inputTokens * band.input +
    usage.outputTokens * band.output +
    usage.cacheReadTokens * band.cacheRead +
    usage.cacheWriteTokens * band.cacheWrite;
  return roundUsd(micro / 1_000_000);
}

/** Dollars rounded to a nano-dollar, so running sums do not drift with binary fractions. */
export function roundUsd(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
