import { ApiError } from './api-error.ts';
import { IncompleteStreamError } from './incomplete-stream-error.ts';
import { NetworkError } from './network-error.ts';
import { TimeoutError } from './timeout-error.ts';

const RETRYABLE_STATUS = new Set([408, 409, 429]);

/**
 * Whether a request that failed with `error` before emitting anything may be sent again:
 * network errors, timeouts, a body that ended before its terminal event (`IncompleteStreamError`:
 * retry operators only see it before any event was emitted), and HTTP 408, 409, 429 and 5xx. An
 * `x-should-retry` response header decides first, as the official SDKs do: `true` retries any
 * status, `false` none. Never an `InvalidRequestError`: the caller's mistake would only be sent again.
 */
export function isRetryableError(error: unknown): boolean {
  if (NetworkError.is(error) || TimeoutError.is(error) || IncompleteStreamError.is(error)) return true;
  if (ApiError.is(error)) {
    // The server's own word comes first, as in the official OpenAI and Anthropic SDKs.
    const should = error.headers?.get('x-should-retry');
    if (should === 'true') return true;
    if (should === 'false') return false;
    return RETRYABLE_STATUS.has(error.status) || error.status >= 500;
  }
  return false;
}
