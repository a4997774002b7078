/** What the agent needs to know of a model besides its price. */
export interface ModelInfo {
  /** Tokens of one request, input and output together. */
  contextWindow: number;
}

/*
 * Context windows in tokens, keyed by the exact model id the API accepts (the same ids as
 * `modelPrices`; a dated snapshot falls back to its alias, see `modelInfoOf`).
 *
 * Sources, as published in November 2025 (verify before relying on a limit):
 * - OpenAI: https://platform.openai.com/docs/models (each model's page, "Context window")
 * - Anthropic: https://docs.anthropic.com/en/docs/about-claude/models/overview (200K; the 1M
 *   window of Sonnet 4 / 4.5 is a beta header, not the default)
 * - Google: https://ai.google.dev/gemini-api/docs/models ("Input token limit")
 * Ollama models have no entry: their window is the server's `num_ctx`, which the `ollama`
 * provider's `contextWindow` option states.
 */
const window = (contextWindow: number, ...ids: string[]): [string, ModelInfo][] =>
  ids.map((id) => [id, Object.freeze({ contextWindow })]);

/**
 * Context windows of models by id (see the sources and date above). Override per model with a
 * provider's `contextWindow` option.
 */
export const modelInfo: Readonly<Record<string, ModelInfo>> = Object.freeze(
  Object.fromEntries([
    ...window(400_000, 'gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-5-pro', 'gpt-5.1'),
    ...window(128_000, 'gpt-5-chat-latest', 'gpt-5.1-chat-latest', 'gpt-4o', 'chatgpt-4o-latest'),
    ...window(128_000, 'gpt-4o-mini', 'gpt-4-turbo'),
    ...window(1_047_576, 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano'),
    ...window(16_385, 'gpt-3.5-turbo'),
    ...window(200_000, 'o1', 'o1-pro', 'o3', 'o3-pro', 'o3-mini', 'o4-mini'),
    ...window(128_000, 'o1-mini'),
    ...window(200_000, 'claude-opus-4-5', 'claude-opus-4-1', 'claude-opus-4-0', 'claude-opus-4'),
    ...window(
      200_000,
      'claude-sonnet-4-5',
      'claude-sonnet-4-0',
      'claude-sonnet-4',
      'claude-3-7-sonnet-latest',
    ),
    ...window(
      200_000,
      'claude-3-7-sonnet',
      'claude-haiku-4-5',
      'claude-3-5-haiku-latest',
      'claude-3-5-haiku',
    ),
    ...window(200_000, 'claude-3-haiku'),
    // Gemini states input and output limits apart: the input limit is the window (cautious).
    ...window(1_048_576, 'gemini-3-pro-preview', 'gemini-2.5-pro', 'gemini-2.5-flash'),
    ...window(1_048_576, 'gemini-2.5-flash-lite', 'gemini-2.0-flash', 'gemini-2.0-flash-lite'),
  ]),
);

// A dated snapshot: `-2024-08-06`, `-20250514`, `-001`.
const SNAPSHOT = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|\d{3})$/;

/**
 * The info of `modelId` (lower-cased, after any `provider/` or `models/` prefix) in `table`: the
 * exact id, else the alias of a dated snapshot (`gpt-4o-2024-08-06` → `gpt-4o`), else `undefined`.
 * A window, unlike a price, does not change between snapshots of one alias.
 * @param table the info to look in. @default modelInfo
 * @example modelInfoOf('claude-sonnet-4-5-20250929')?.contextWindow // → 200000
 */
export function modelInfoOf(
  modelId: string,
  table: Readonly<Record<string, ModelInfo>> = modelInfo,
): ModelInfo | undefined {
  const id = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  if (Object.hasOwn(table, id)) return table[id];
  const alias = id.replace(SNAPSHOT, '');
  return alias !== id && Object.hasOwn(table, alias) ? table[alias] : undefined;
}
