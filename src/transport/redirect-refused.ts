import { RedirectRefusedError } from '../core/index.ts';
import { requestIdOf } from './request-id.ts';
import { redactedHeaders } from './request-secrets.ts';
import { endpointOf } from './safe-url.ts';

const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

/**
 * Whether `response` is a redirect that fetch was told not to follow (`redirect: 'manual'`): a 3xx
 * with a `Location` on Node, an opaque redirect (status 0, no headers) in a browser.
 */
export function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || REDIRECT_STATUS.has(response.status);
}

/**
 * The error for a redirect answer. Its body is discarded unread; the message names where the
 * redirect pointed (origin and path only) so the caller can set `baseURL` to it.
 * A careless server quotes the request back (its key in a `Location` or another header): every one
 * of `secrets` is cut from the headers the error keeps.
 * @param url the request's URL, which resolves a relative `Location`
 * @param secrets what the request carried (`requestSecrets`)
 */
export function redirectRefused(
  provider: string,
  url: string,
  response: Response,
  secrets: readonly string[],
): RedirectRefusedError {
  response.body?.cancel().catch(() => undefined);
  const headers = redactedHeaders(response.headers, secrets);
  const target = headers.get('location');
  const location = target === null ? undefined : endpointOf(target, url);
  const requestId = requestIdOf(headers);
  return new RedirectRefusedError(
    `${provider}: ${endpointOf(url)} answered with a redirect (HTTP ${response.status}${
      location === undefined ? '' : ` to ${location}`
    }), which is not followed: it would carry the API key and the prompt to the new address; ` +
      'set baseURL to the final address',
    {
      status: response.status,
      provider,
      headers,
      ...(location === undefined ? {} : { location }),
      ...(requestId === undefined ? {} : { requestId }),
    },
  );
}
