/** Token counts of one model turn. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

/** What a turn cost in US dollars, when the model's price is known. */
export interface Cost {
  inputUsd: number;
  outputUsd: number;
  totalUsd: number;
}

/** Usage of a turn that reported none. */
export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
