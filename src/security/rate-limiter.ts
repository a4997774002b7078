/** The answer of a rate limiter for one request. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Requests left right now after this one (0 when refused). */
  remaining: number;
  /** When refused: how long until the request would be allowed; 0 when allowed. */
  retryAfterMs: number;
}

/**
 * Counts requests per key (e.g. per actor and tool). The memory implementation is
 * `memoryRateLimiter`; distributed ones (Redis) implement the same interface.
 */
export interface RateLimiter {
  /**
   * Takes `cost` tokens for `key` if it has them.
   * @param cost tokens to take
   * @default cost 1
   */
  consume(key: string, cost?: number): Promise<RateLimitDecision>;
}
