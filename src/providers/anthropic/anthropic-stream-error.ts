import { ApiError, RateLimitError } from '../../core/index.ts';

/** The HTTP status Anthropic documents for each error type. */
const STATUS_BY_TYPE: Readonly<Record<string, number>> = Object.freeze({
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
});

/**
 * The typed error for an in-stream `event: error`: `RateLimitError` for `rate_limit_error`,
 * otherwise `ApiError` with the status the error type maps to (`overloaded_error` → 529,
 * unknown types → 500), so `isRetryableError` judges it like the HTTP answer it stands for.
 * @param error the event's `error` object
 * @param raw the event's JSON text, kept as the error's `body`
 */
export function anthropicStreamError(
  error: { type?: string; message?: string } | undefined,
  raw: string,
): ApiError {
  const errorType = typeof error?.type === 'string' ? error.type : undefined;
  const status = (errorType === undefined ? undefined : STATUS_BY_TYPE[errorType]) ?? 500;
  const detail = typeof error?.message === 'string' ? error.message : 'error event';
  const message = `anthropic stream error${errorType === undefined ? '' : ` (${errorType})`}: ${detail}`;
  const data = {
    status,
    provider: 'anthropic',
    body: raw,
    ...(errorType === undefined ? {} : { errorType }),
  };
  return status === 429 ? new RateLimitError(message, data) : new ApiError(message, data);
}
