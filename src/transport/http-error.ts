import { ApiError, RateLimitError } from '../core/index.ts';
import { parseRetryAfter } from './parse-retry-after.ts';
import { requestIdOf } from './request-id.ts';

/** Pulls a provider's own message and error type out of an error body. */
export type ErrorBodyParser = (
  text: string,
  headers?: Headers,
) => { message?: string; errorType?: string } | undefined;

/**
 * The common shape `{ error: { message, type } }` (OpenAI, Anthropic, Gemini, Azure) or
 * `{ error: "text" }` (Ollama), else nothing.
 */
export const parseCommonErrorBody: ErrorBodyParser = (text) => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const error: unknown = Reflect.get(json, 'error');
  if (typeof error === 'string') return { message: error };
  if (typeof error !== 'object' || error === null) return undefined;
  const message: unknown = Reflect.get(error, 'message');
  const type: unknown =
    Reflect.get(error, 'type') ?? Reflect.get(error, 'status') ?? Reflect.get(error, 'code');
  return {
    ...(typeof message === 'string' ? { message } : {}),
    ...(typeof type === 'string' ? { errorType: type } : {}),
  };
};

const MAX_BODY_CHARS = 8192;

/**
 * The typed error for a non-2xx response: `RateLimitError` for 429, `ApiError` otherwise, with the
 * provider's message, the raw body (capped at 8 KiB), the server's retry delay, the provider's
 * request id and the response headers.
 */
export function httpError(
  provider: string,
  status: number,
  headers: Headers,
  bodyText: string,
  parseErrorBody: ErrorBodyParser = parseCommonErrorBody,
): ApiError {
  const parsed = parseErrorBody(bodyText, headers);
  const body = bodyText.length > MAX_BODY_CHARS ? bodyText.slice(0, MAX_BODY_CHARS) : bodyText;
  const retryAfterMs = parseRetryAfter(headers);
  const requestId = requestIdOf(headers);
  const message = `${provider} returned HTTP ${status}${parsed?.message ? `: ${parsed.message}` : ''}`;
  const data = {
    status,
    provider,
    body,
    ...(parsed?.errorType === undefined ? {} : { errorType: parsed.errorType }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(requestId === undefined ? {} : { requestId }),
    headers,
  };
  return status === 429 ? new RateLimitError(message, data) : new ApiError(message, data);
}
