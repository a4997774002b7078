import type { ModelPrice } from './pricing.ts';

/*
 * List prices in US dollars per million tokens, standard (not batch, not priority) tier, keyed by the
 * exact model id the API accepts: each dated snapshot and each alias is listed on its own, because a
 * snapshot can cost something else than its alias (gpt-4o-2024-05-13 is $5/$15, gpt-4o is $2.50/$10).
 *
 * Sources, as published in November 2025 (verify before billing anyone):
 * - OpenAI: https://platform.openai.com/docs/pricing
 * - Anthropic: https://docs.anthropic.com/en/docs/about-claude/pricing (5-minute cache writes at
 *   1.25 times the input rate, 1-hour writes at twice it: the usage the API streams tells them
 *   apart in `cache_creation.ephemeral_1h_input_tokens`)
 * - Google: https://ai.google.dev/gemini-api/docs/pricing (paid tier, text input, prompts up to
 *   200k tokens; the higher rates past 200k are not applied)
 */

/** A price whose cached input costs `cachedInputPerMTok`. */
const cached = (inputPerMTok: number, outputPerMTok: number, cachedInputPerMTok: number): ModelPrice => ({
  inputPerMTok,
  outputPerMTok,
  cachedInputPerMTok,
});
/** A price without a prompt-cache discount. */
const flat = (inputPerMTok: number, outputPerMTok: number): ModelPrice => ({ inputPerMTok, outputPerMTok });
/** An Anthropic price: input, output, cache read, 5-minute cache write; 1-hour writes cost 2× input. */
const claude = (
  inputPerMTok: number,
  outputPerMTok: number,
  cachedInputPerMTok: number,
  cacheWritePerMTok: number,
): ModelPrice => ({
  inputPerMTok,
  outputPerMTok,
  cachedInputPerMTok,
  cacheWritePerMTok,
  cacheWrite1hPerMTok: inputPerMTok * 2,
});
/** The same price under each of `ids` (an alias and its dated snapshots). */
const ids = (price: ModelPrice, ...names: string[]): [string, ModelPrice][] =>
  names.map((name) => [name, Object.freeze(price)]);

/**
 * Prices of models by exact id (see the sources and date above). `priceOf` looks ids up here;
 * a model that is not listed has no `cost`. Override per model with a provider's `price` option.
 */
export const modelPrices: Readonly<Record<string, ModelPrice>> = Object.freeze(
  Object.fromEntries([
    // OpenAI
    ...ids(cached(1.25, 10, 0.125), 'gpt-5', 'gpt-5-2025-08-07', 'gpt-5-chat-latest'),
    ...ids(cached(1.25, 10, 0.125), 'gpt-5.1', 'gpt-5.1-2025-11-13', 'gpt-5.1-chat-latest'),
    ...ids(cached(0.25, 2, 0.025), 'gpt-5-mini', 'gpt-5-mini-2025-08-07'),
    ...ids(cached(0.05, 0.4, 0.005), 'gpt-5-nano', 'gpt-5-nano-2025-08-07'),
    ...ids(flat(15, 120), 'gpt-5-pro', 'gpt-5-pro-2025-10-06'),
    ...ids(cached(2, 8, 0.5), 'gpt-4.1', 'gpt-4.1-2025-04-14'),
    ...ids(cached(0.4, 1.6, 0.1), 'gpt-4.1-mini', 'gpt-4.1-mini-2025-04-14'),
    ...ids(cached(0.1, 0.4, 0.025), 'gpt-4.1-nano', 'gpt-4.1-nano-2025-04-14'),
    ...ids(cached(2.5, 10, 1.25), 'gpt-4o', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20'),
    ...ids(flat(5, 15), 'gpt-4o-2024-05-13', 'chatgpt-4o-latest'),
    ...ids(cached(0.15, 0.6, 0.075), 'gpt-4o-mini', 'gpt-4o-mini-2024-07-18'),
    ...ids(flat(10, 30), 'gpt-4-turbo', 'gpt-4-turbo-2024-04-09'),
    ...ids(flat(0.5, 1.5), 'gpt-3.5-turbo', 'gpt-3.5-turbo-0125'),
    ...ids(cached(15, 60, 7.5), 'o1', 'o1-2024-12-17'),
    ...ids(cached(1.1, 4.4, 0.55), 'o1-mini', 'o1-mini-2024-09-12'),
    ...ids(flat(150, 600), 'o1-pro', 'o1-pro-2025-03-19'),
    ...ids(cached(2, 8, 0.5), 'o3', 'o3-2025-04-16'),
    ...ids(flat(20, 80), 'o3-pro', 'o3-pro-2025-06-10'),
    ...ids(cached(1.1, 4.4, 0.55), 'o3-mini', 'o3-mini-2025-01-31'),
    ...ids(cached(1.1, 4.4, 0.275), 'o4-mini', 'o4-mini-2025-04-16'),
    // Anthropic
    ...ids(claude(5, 25, 0.5, 6.25), 'claude-opus-4-5', 'claude-opus-4-5-20251101'),
    ...ids(claude(15, 75, 1.5, 18.75), 'claude-opus-4-1', 'claude-opus-4-1-20250805'),
    ...ids(claude(15, 75, 1.5, 18.75), 'claude-opus-4-0', 'claude-opus-4-20250514'),
    ...ids(claude(3, 15, 0.3, 3.75), 'claude-sonnet-4-5', 'claude-sonnet-4-5-20250929'),
    ...ids(claude(3, 15, 0.3, 3.75), 'claude-sonnet-4-0', 'claude-sonnet-4-20250514'),
    ...ids(claude(3, 15, 0.3, 3.75), 'claude-3-7-sonnet-latest', 'claude-3-7-sonnet-20250219'),
    ...ids(claude(1, 5, 0.1, 1.25), 'claude-haiku-4-5', 'claude-haiku-4-5-20251001'),
    ...ids(claude(0.8, 4, 0.08, 1), 'claude-3-5-haiku-latest', 'claude-3-5-haiku-20241022'),
    ...ids(claude(0.25, 1.25, 0.03, 0.3), 'claude-3-haiku-20240307'),
    // Google
    ...ids(cached(2, 12, 0.2), 'gemini-3-pro-preview'),
    ...ids(cached(1.25, 10, 0.125), 'gemini-2.5-pro'),
    ...ids(cached(0.3, 2.5, 0.03), 'gemini-2.5-flash'),
    ...ids(cached(0.1, 0.4, 0.01), 'gemini-2.5-flash-lite'),
    ...ids(cached(0.1, 0.4, 0.025), 'gemini-2.0-flash', 'gemini-2.0-flash-001'),
    ...ids(flat(0.075, 0.3), 'gemini-2.0-flash-lite', 'gemini-2.0-flash-lite-001'),
  ]),
);
