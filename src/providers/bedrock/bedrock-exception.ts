import { ApiError, RateLimitError } from '../../core/index.ts';

/**
 * HTTP status of each Converse exception, from the Bedrock API reference. A model-stream error
 * (documented as 424, "retry your request") counts as 500, so it is retried before any output.
 */
const STATUS: Readonly<Record<string, number>> = {
  validationexception: 400,
  accessdeniedexception: 403,
  resourcenotfoundexception: 404,
  modeltimeoutexception: 408,
  modelnotreadyexception: 429,
  throttlingexception: 429,
  servicequotaexceededexception: 429,
  internalserverexception: 500,
  modelstreamerrorexception: 500,
  modelerrorexception: 500,
  serviceunavailableexception: 503,
};

/**
 * The typed error for a Bedrock exception, in the stream (`:exception-type`) or as an HTTP error
 * type (`x-amzn-errortype`, e.g. `ValidationException:http://…`): `RateLimitError` for throttling,
 * `ApiError` with the documented status otherwise (unknown types → 500).
 * @param type the exception type, in any case.
 * @param payload the exception's JSON body (`{ message }`).
 */
export function bedrockException(type: string, payload: unknown, body = JSON.stringify(payload)): ApiError {
  const errorType = type.split(':')[0] ?? type;
  const status = STATUS[errorType.toLowerCase()] ?? 500;
  const text = messageOf(payload);
  const message = `bedrock: ${errorType}${text === undefined ? '' : `: ${text}`}`;
  const data = { status, provider: 'bedrock', body, errorType };
  return status === 429 ? new RateLimitError(message, data) : new ApiError(message, data);
}

/** `message` (or `Message`) of an AWS error body. */
export function messageOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const value: unknown = Reflect.get(payload, 'message') ?? Reflect.get(payload, 'Message');
  return typeof value === 'string' ? value : undefined;
}
