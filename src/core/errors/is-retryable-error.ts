import { ApiError } from './api-error.ts';
import { NetworkError } from './network-error.ts';
import { TimeoutError } from './timeout-error.ts';

const RETRYABLE_STATUS = new Set([408, 409, 429]);

/**
 * Whether a request that failed with `error` before emitting anything may be sent again:
 * network errors, timeouts, and HTTP 408, 409, 429 and 5xx.
 */
export function isRetryableError(error: unknown): boolean {
  if (NetworkError.is(error) || TimeoutError.is(error)) return true;
  if (ApiError.is(error)) return RETRYABLE_STATUS.has(error.status) || error.status >= 500;
  return false;
}
