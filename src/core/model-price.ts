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
