import {
  SdkHttpError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { McpError } from '../core/index.ts';
import { endpointOf } from '../transport/safe-url.ts';
import type { McpHttpOptions } from './connect-options.ts';
import { limitedFetch, MAX_MESSAGE_BYTES } from './limited-fetch.ts';
import { oauthFetch } from './oauth-fetch.ts';

/**
 * The server's URL. A malformed one, or one with `user:pass@` (which fetch refuses, quoting it
 * whole), is an `McpError` `connect_failed` naming only the URL's origin and path.
 */
function serverUrl(options: McpHttpOptions): URL {
  const fail = (why: string) =>
    new McpError(`${options.name}: ${why}: ${endpointOf(String(options.url))}`, {
      server: options.name,
      reason: 'connect_failed',
    });
  if (!URL.canParse(options.url)) throw fail('not a valid URL');
  const url = new URL(options.url);
  if (url.username !== '' || url.password !== '')
    throw fail('a URL with credentials (user:pass@) is not sent; pass them in headers or oauth');
  return url;
}

/** The SDK's HTTP client transport of one kind for these options. */
export function httpTransport(options: McpHttpOptions, kind: 'streamable-http' | 'sse'): Transport {
  const url = serverUrl(options);
  const limit = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const fetch = limitedFetch(
    options.name,
    limit,
    options.oauth ? oauthFetch(options.oauth, url, options.fetch) : options.fetch,
  );
  const common = {
    ...(options.headers ? { requestInit: { headers: { ...options.headers } } } : {}),
    ...(options.authProvider && !options.oauth ? { authProvider: options.authProvider } : {}),
    fetch,
  };
  return kind === 'sse'
    ? new SSEClientTransport(url, common as ConstructorParameters<typeof SSEClientTransport>[1])
    : new StreamableHTTPClientTransport(url, common);
}

/** The HTTP status behind an SDK error (it may be the cause of the error thrown). */
export function httpStatusOf(error: unknown): number | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    if (current instanceof SdkHttpError) return current.status;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

/**
 * Whether a failed Streamable HTTP connect means "this server speaks only the legacy HTTP+SSE
 * transport": the spec's backwards-compatibility rule is a 400, 404 or 405 to the first POST.
 * Anything else (refused connection, 401, 5xx) is the real error and is reported as it is.
 */
export function isLegacySseAnswer(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status === 400 || status === 404 || status === 405;
}
