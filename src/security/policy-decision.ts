/** The security policy's verdict on one tool call. */
export type PolicyDecision =
  | { type: 'allow' }
  | { type: 'deny'; reason: string }
  | { type: 'rate-limited'; reason: string; retryAfterMs: number };
