import { ApiError, RateLimitError } from '../../core/index.ts';
import { type ErrorBodyParser, parseCommonErrorBody } from '../../transport/index.ts';
import type { GeminiErrorObject } from './gemini-wire.ts';

/** The HTTP status of each `google.rpc.Code` name. */
const STATUS_BY_CODE_NAME: Readonly<Record<string, number>> = Object.freeze({
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  UNKNOWN: 500,
  INTERNAL: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
});

/**
 * The typed error for an error object inside the stream: its `code` when that is an HTTP status,
 * else the status its `status` name maps to (`UNAVAILABLE` → 503), else 500. 429
 * (`RESOURCE_EXHAUSTED`) becomes a `RateLimitError`.
 * @param raw the chunk's JSON text, kept as the error's `body`
 */
export function geminiStreamError(error: GeminiErrorObject, raw: string): ApiError {
  const errorType = typeof error.status === 'string' ? error.status : undefined;
  const status =
    typeof error.code === 'number' && error.code >= 400 && error.code <= 599
      ? error.code
      : ((errorType === undefined ? undefined : STATUS_BY_CODE_NAME[errorType]) ?? 500);
  const detail = typeof error.message === 'string' ? error.message : (errorType ?? 'error');
  const message = `gemini stream error${errorType === undefined ? '' : ` (${errorType})`}: ${detail}`;
  const data = { status, provider: 'gemini', body: raw, ...(errorType === undefined ? {} : { errorType }) };
  return status === 429 ? new RateLimitError(message, data) : new ApiError(message, data);
}

/**
 * Reads Gemini's HTTP error bodies: `{ error: { code, message, status } }`, also wrapped in an
 * array (`[{ error }]`, as the non-SSE streaming endpoint answers). `errorType` is the `status` name.
 */
export const parseGeminiErrorBody: ErrorBodyParser = (text) => {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('[')) return parseCommonErrorBody(text);
  let list: unknown;
  try {
    list = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  return Array.isArray(list) && list.length > 0 ? parseCommonErrorBody(JSON.stringify(list[0])) : undefined;
};
