import { type ModelPrice, priceOf } from '../../core/index.ts';

/** The model name without an ARN, a cross-region prefix (`us.`, `eu.`, `global.`) or the vendor (`anthropic.`). */
export const bedrockModelName = (modelId: string): string => {
  const id = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  return id.slice(id.lastIndexOf('.', id.search(/[:]|$/)) + 1);
};

/** Bedrock list prices (USD per million tokens, on-demand, us-east-1) of models not in `modelPrices`. */
export const bedrockPrices: Readonly<Record<string, ModelPrice>> = Object.freeze({
  'nova-micro': { inputPerMTok: 0.035, outputPerMTok: 0.14 },
  'nova-lite': { inputPerMTok: 0.06, outputPerMTok: 0.24 },
  'nova-pro': { inputPerMTok: 0.8, outputPerMTok: 3.2 },
  'nova-premier': { inputPerMTok: 2.5, outputPerMTok: 12.5 },
});

/**
 * The price of a Bedrock model id (`us.anthropic.claude-sonnet-4-20250514-v1:0`, an inference
 * profile ARN …): the vendor and region prefixes are dropped and the name looked up in
 * `bedrockPrices`, then in `modelPrices` (Claude list prices match Bedrock's on-demand ones).
 */
export function bedrockPriceOf(modelId: string): ModelPrice | undefined {
  const name = bedrockModelName(modelId);
  return priceOf(name, bedrockPrices) ?? priceOf(name);
}
