import { type ModelPrice, modelPrices, priceOf } from '../../core/index.ts';

/** Cross-region inference profile prefixes (`us.anthropic.…`, `global.anthropic.…`). */
const REGION_PREFIX = /^(?:us|us-gov|eu|apac|jp|au|ca|global)\./;

/**
 * The Bedrock model id without an ARN and a cross-region prefix:
 * `arn:…:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0` → `anthropic.claude-sonnet-4-20250514-v1:0`.
 */
export const bedrockBaseModelId = (modelId: string): string =>
  modelId
    .slice(modelId.lastIndexOf('/') + 1)
    .toLowerCase()
    .replace(REGION_PREFIX, '');

/** The same price as the Anthropic model `id` of the core table (Bedrock's on-demand Claude prices are Anthropic's). */
const anthropicPrice = (id: string): ModelPrice => {
  const price = modelPrices[id];
  if (price === undefined) throw new Error(`bedrock-prices: ${id} is not in modelPrices`);
  return price;
};
/** A Nova price: cache reads at a quarter of the input rate, cache writes at the input rate. */
const nova = (inputPerMTok: number, outputPerMTok: number, cachedInputPerMTok: number): ModelPrice =>
  Object.freeze({ inputPerMTok, outputPerMTok, cachedInputPerMTok });

/**
 * Bedrock on-demand list prices (USD per million tokens, us-east-1) by exact base model id, from
 * https://aws.amazon.com/bedrock/pricing/ as published in November 2025. Claude models cost what
 * Anthropic lists (cache reads and 5-minute cache writes included); the surcharge Bedrock adds on
 * regional (not `global.`) profiles of some newer models is not applied. A model not listed has no cost.
 */
export const bedrockPrices: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'anthropic.claude-opus-4-5-20251101-v1:0': anthropicPrice('claude-opus-4-5-20251101'),
  'anthropic.claude-opus-4-1-20250805-v1:0': anthropicPrice('claude-opus-4-1-20250805'),
  'anthropic.claude-opus-4-20250514-v1:0': anthropicPrice('claude-opus-4-20250514'),
  'anthropic.claude-sonnet-4-5-20250929-v1:0': anthropicPrice('claude-sonnet-4-5-20250929'),
  'anthropic.claude-sonnet-4-20250514-v1:0': anthropicPrice('claude-sonnet-4-20250514'),
  'anthropic.claude-haiku-4-5-20251001-v1:0': anthropicPrice('claude-haiku-4-5-20251001'),
  'anthropic.claude-3-7-sonnet-20250219-v1:0': anthropicPrice('claude-3-7-sonnet-20250219'),
  'anthropic.claude-3-5-haiku-20241022-v1:0': anthropicPrice('claude-3-5-haiku-20241022'),
  'anthropic.claude-3-haiku-20240307-v1:0': anthropicPrice('claude-3-haiku-20240307'),
  'amazon.nova-micro-v1:0': nova(0.035, 0.14, 0.00875),
  'amazon.nova-lite-v1:0': nova(0.06, 0.24, 0.015),
  'amazon.nova-pro-v1:0': nova(0.8, 3.2, 0.2),
  'amazon.nova-premier-v1:0': nova(2.5, 12.5, 0.625),
});

/**
 * The price of exactly this Bedrock model (`us.anthropic.claude-sonnet-4-20250514-v1:0`, an
 * inference profile ARN …): the ARN and cross-region prefix are dropped and the base model id
 * looked up in `bedrockPrices`; `undefined` when it is not listed.
 */
export function bedrockPriceOf(modelId: string): ModelPrice | undefined {
  return priceOf(bedrockBaseModelId(modelId), bedrockPrices);
}
