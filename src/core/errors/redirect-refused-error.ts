import { ApiError, type ApiErrorData } from './api-error.ts';

/**
 * The provider's endpoint answered with a redirect (HTTP 3xx), which rxagent never follows: a
 * request carries the API key and the whole prompt, and fetch would re-send both (every header but
 * `Authorization`) to whatever host the redirect names. Point `baseURL` at the final address.
 * Not retried: the same request would be redirected again.
 * @example if (RedirectRefusedError.is(err)) console.error(`set baseURL to ${err.location}`)
 */
export class RedirectRefusedError extends ApiError {
  static override readonly kind: string = 'RedirectRefusedError';
  /** Where the redirect pointed: origin and path only (no credentials, query or fragment), if told. */
  readonly location: string | undefined;

  constructor(message: string, data: ApiErrorData & { location?: string }) {
    super(message, data, 'redirect_refused');
    this.location = data.location;
  }
}
