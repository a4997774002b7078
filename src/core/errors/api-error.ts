import { RxAgentError } from './rx-agent-error.ts';

/** The data of a failed API call. */
export interface ApiErrorData {
  status: number;
  provider: string;
  /** The raw response body (or the raw error event), for logs. */
  body?: string;
  /** The provider's own error type, e.g. `overloaded_error` or `invalid_request_error`. */
  errorType?: string;
  /** How long the server asked us to wait, from `retry-after-ms` / `Retry-After`. */
  retryAfterMs?: number;
  /** The provider's id for the request (`x-request-id`, `request-id`, `x-amzn-requestid`), for support tickets. */
  requestId?: string;
  /** The response headers, when the error came with an HTTP response. */
  headers?: Headers;
  cause?: unknown;
}

/**
 * The provider answered with an error: an HTTP status, or an error event in the stream (whose
 * `status` is the one the provider's error type maps to).
 */
export class ApiError extends RxAgentError {
  static override readonly kind: string = 'ApiError';
  readonly status: number;
  readonly provider: string;
  readonly body: string | undefined;
  readonly errorType: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;

  constructor(message: string, data: ApiErrorData, code = 'api_error') {
    super(message, code, { cause: data.cause });
    this.status = data.status;
    this.provider = data.provider;
    this.body = data.body;
    this.errorType = data.errorType;
    this.retryAfterMs = data.retryAfterMs;
    this.requestId = data.requestId;
    this.headers = data.headers;
  }
}
