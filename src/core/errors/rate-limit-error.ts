import { ApiError, type ApiErrorData } from './api-error.ts';

/** The provider refused the request for rate or quota reasons (HTTP 429). */
export class RateLimitError extends ApiError {
  static override readonly kind: string = 'RateLimitError';

  constructor(message: string, data: Omit<ApiErrorData, 'status'> & { status?: number }) {
    super(message, { ...data, status: data.status ?? 429 }, 'rate_limited');
  }
}
