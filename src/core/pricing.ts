import { modelPrices } from './model-prices.ts';
import type { Cost, Usage } from './usage.ts';

/** A model's price in US dollars per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Price of input tokens served from the provider's prompt cache; defaults to `inputPerMTok`. */
  cachedInputPerMTok?: number;
  /** Price of writing input to the prompt cache (Anthropic, Bedrock); defaults to `inputPerMTok`. */
  cacheWritePerMTok?: number;
  /** Price of a 1-hour prompt-cache write (Anthropic: twice the input rate); defaults to `cacheWritePerMTok`. */
  cacheWrite1hPerMTok?: number;
}

/**
 * The price of exactly `modelId` (lower-cased, after any `provider/` or `models/` prefix) in
 * `table`, or `undefined`: an id that is not listed (a new snapshot, a fine-tune, a deployment
 * name) has no price rather than its family's, which can be many times off (`o1-mini` vs `o1`).
 * @param table the prices to look in. @default modelPrices
 * @example priceOf('gpt-4o-mini-2024-07-18') // → $0.15 in, $0.60 out per MTok
 * @example priceOf('gpt-4o-mini-2099-01-01') // → undefined
 */
export function priceOf(
  modelId: string,
  table: Readonly<Record<string, ModelPrice>> = modelPrices,
): ModelPrice | undefined {
  const id = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  return Object.hasOwn(table, id) ? table[id] : undefined;
}

const round = (usd: number) => Math.round(usd * 1e9) / 1e9;

/**
 * What `usage` cost at `price`. `inputTokens` includes cached tokens, which are charged at the
 * cached rate; `cacheWriteTokens` (Anthropic, Bedrock) at the cache-write rate, the 1-hour ones
 * among them (`cacheWrite1hTokens`) at the 1-hour rate.
 */
export function computeCost(usage: Usage, price: ModelPrice): Cost {
  const cached = usage.cachedInputTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const hour = Math.min(written, usage.cacheWrite1hTokens ?? 0);
  const plain = Math.max(0, usage.inputTokens - cached - written);
  const writeRate = price.cacheWritePerMTok ?? price.inputPerMTok;
  const inputUsd = round(
    (plain * price.inputPerMTok +
      cached * (price.cachedInputPerMTok ?? price.inputPerMTok) +
      (written - hour) * writeRate +
      hour * (price.cacheWrite1hPerMTok ?? writeRate)) /
      1e6,
  );
  const outputUsd = round((usage.outputTokens * price.outputPerMTok) / 1e6);
  return { inputUsd, outputUsd, totalUsd: round(inputUsd + outputUsd) };
}
