import { ApiError, RateLimitError } from '../../core/index.ts';
import type { OpenAIChunk, OpenAIErrorObject } from './openai-wire.ts';

// Error types that name an HTTP status, for servers whose error object carries no numeric code.
const STATUS_OF_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  service_unavailable: 503,
  overloaded_error: 529,
};

/**
 * The error object of a chunk, or `undefined` for an ordinary chunk. Reads `{ error: {…} }`
 * (OpenAI, Azure, most servers), `{ error: 'text' }`, and vLLM's older `{ object: 'error', … }`.
 */
export function openAIStreamErrorOf(chunk: OpenAIChunk): OpenAIErrorObject | undefined {
  const { error } = chunk;
  if (typeof error === 'string') return { message: error };
  if (typeof error === 'object' && error !== null) return error;
  if (chunk.object === 'error') return { message: chunk.message, type: chunk.type, code: chunk.code };
  return undefined;
}

/**
 * The `ApiError` for an error object sent inside the stream. Its `status` is the error's `code`
 * when that is an HTTP status (some servers send `code: 429`), else the status its `type` names
 * (`invalid_request_error` → 400, `rate_limit_exceeded` → 429 …), else 500: an error reported
 * after a 200 answer is the server's failure. A 429 becomes a `RateLimitError`. `body` is the
 * chunk as JSON, `errorType` the error's `type` (or string `code`).
 */
export function openAIStreamError(provider: string, chunk: OpenAIChunk, error: OpenAIErrorObject): ApiError {
  const numeric = typeof error.code === 'string' && /^\d{3}$/.test(error.code);
  const code = numeric ? Number(error.code) : error.code;
  const type = error.type || (typeof error.code === 'string' && !numeric ? error.code : undefined);
  const status =
    typeof code === 'number' && code >= 400 && code <= 599
      ? code
      : ((type === undefined ? undefined : STATUS_OF_TYPE[type]) ?? 500);
  const message = `${provider} stream error: ${error.message || type || 'unknown error'}`;
  const data = {
    status,
    provider,
    body: JSON.stringify(chunk),
    ...(type ? { errorType: type } : {}),
  };
  return status === 429 ? new RateLimitError(message, data) : new ApiError(message, data);
}
