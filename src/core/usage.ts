/** Token counts of one model turn. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens served from the provider's prompt cache (included in `inputTokens`). */
  cachedInputTokens?: number;
  /** Input tokens written to the provider's prompt cache (Anthropic, Bedrock; included in `inputTokens`). */
  cacheWriteTokens?: number;
  /** Of `cacheWriteTokens`, those written with a 1-hour lifetime (Anthropic), priced at their own rate. */
  cacheWrite1hTokens?: number;
  /** Output tokens spent on reasoning (included in `outputTokens`). */
  reasoningTokens?: number;
}

/** What a turn cost in US dollars, when the model's price is known. */
export interface Cost {
  inputUsd: number;
  outputUsd: number;
  totalUsd: number;
}

/**
 * Zero usage: the starting value when adding up the usage of several turns. Not a stand-in for a
 * turn whose provider reported none (that turn has no `usage`).
 */
export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
