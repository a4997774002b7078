import type { Cost, Usage } from './usage.ts';

/** A model's price in US dollars per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Price of input tokens served from the provider's prompt cache; defaults to `inputPerMTok`. */
  cachedInputPerMTok?: number;
  /** Price of writing input to the prompt cache (Anthropic); defaults to `inputPerMTok`. */
  cacheWritePerMTok?: number;
}

const price = (inputPerMTok: number, outputPerMTok: number, cachedInputPerMTok?: number): ModelPrice =>
  cachedInputPerMTok === undefined
    ? { inputPerMTok, outputPerMTok }
    : { inputPerMTok, outputPerMTok, cachedInputPerMTok };

/**
 * List prices of common models (USD per million tokens, standard tier), matched by the longest
 * prefix of the model id, so dated snapshots (`gpt-4o-2024-08-06`) find their family.
 * Override per model with a provider's `price` option.
 */
export const modelPrices: Readonly<Record<string, ModelPrice>> = Object.freeze({
  // OpenAI
  'gpt-5': price(1.25, 10, 0.125),
  'gpt-5-mini': price(0.25, 2, 0.025),
  'gpt-5-nano': price(0.05, 0.4, 0.005),
  'gpt-4.1': price(2, 8, 0.5),
  'gpt-4.1-mini': price(0.4, 1.6, 0.1),
  'gpt-4.1-nano': price(0.1, 0.4, 0.025),
  'gpt-4o': price(2.5, 10, 1.25),
  'gpt-4o-mini': price(0.15, 0.6, 0.075),
  o1: price(15, 60, 7.5),
  o3: price(2, 8, 0.5),
  'o3-mini': price(1.1, 4.4, 0.55),
  'o4-mini': price(1.1, 4.4, 0.275),
  // Anthropic
  'claude-opus-4-5': { inputPerMTok: 5, outputPerMTok: 25, cachedInputPerMTok: 0.5, cacheWritePerMTok: 6.25 },
  'claude-opus-4': { inputPerMTok: 15, outputPerMTok: 75, cachedInputPerMTok: 1.5, cacheWritePerMTok: 18.75 },
  'claude-sonnet-4': { inputPerMTok: 3, outputPerMTok: 15, cachedInputPerMTok: 0.3, cacheWritePerMTok: 3.75 },
  'claude-3-7-sonnet': {
    inputPerMTok: 3,
    outputPerMTok: 15,
    cachedInputPerMTok: 0.3,
    cacheWritePerMTok: 3.75,
  },
  'claude-haiku-4-5': { inputPerMTok: 1, outputPerMTok: 5, cachedInputPerMTok: 0.1, cacheWritePerMTok: 1.25 },
  'claude-3-5-haiku': { inputPerMTok: 0.8, outputPerMTok: 4, cachedInputPerMTok: 0.08, cacheWritePerMTok: 1 },
  // Google
  'gemini-2.5-pro': price(1.25, 10, 0.31),
  'gemini-2.5-flash': price(0.3, 2.5, 0.075),
  'gemini-2.5-flash-lite': price(0.1, 0.4, 0.025),
  'gemini-2.0-flash': price(0.1, 0.4, 0.025),
});

/**
 * The price of `modelId`: the entry whose key is the longest prefix of the id (ignoring a
 * `provider/` or `models/` prefix), or `undefined` when none matches.
 * @example priceOf('gpt-4o-mini-2024-07-18') // → the gpt-4o-mini entry
 */
export function priceOf(
  modelId: string,
  table: Readonly<Record<string, ModelPrice>> = modelPrices,
): ModelPrice | undefined {
  const id = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (id.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

const round = (usd: number) => Math.round(usd * 1e9) / 1e9;

/**
 * What `usage` cost at `price`. `inputTokens` includes cached tokens, which are charged at the
 * cached rate; `cacheWriteTokens` (Anthropic) at the cache-write rate.
 */
export function computeCost(usage: Usage, price: ModelPrice): Cost {
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const plain = Math.max(0, usage.inputTokens - cached - written);
  const inputUsd = round(
    (plain * price.inputPerMTok +
      cached * (price.cachedInputPerMTok ?? price.inputPerMTok) +
      written * (price.cacheWritePerMTok ?? price.inputPerMTok)) /
      1e6,
  );
  const outputUsd = round((usage.outputTokens * price.outputPerMTok) / 1e6);
  return { inputUsd, outputUsd, totalUsd: round(inputUsd + outputUsd) };
}
