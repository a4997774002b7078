import { NetworkError } from '../core/index.ts';
import { endpointOf, withoutUrlSecrets } from './safe-url.ts';

/** What a socket, DNS or TLS error code means, in a few words. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed, try again',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_SOCKET: 'the server closed the connection',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate chain is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate cannot be verified',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another host',
};

/**
 * The `NetworkError` for a request that got no HTTP answer. The message says why in words and the
 * error code (`connection refused (ECONNREFUSED)`); the cause is the underlying socket, DNS or TLS
 * error, never fetch's wrapper (whose message may quote the whole URL). No message or cause holds
 * the URL's `user:pass@`, query, headers or body.
 * @param url the request's URL: only its origin and path are named
 */
export function networkFailure(provider: string, url: string, error: unknown): NetworkError {
  const root = rootCause(error);
  const code = codeOf(root);
  const reason = code === undefined ? describe(root) : `${REASONS[code] ?? 'failed'} (${code})`;
  return new NetworkError(`${provider}: request to ${endpointOf(url)} failed: ${reason}`, {
    provider,
    cause: scrubbed(root),
  });
}

/** The innermost error of a `cause` chain that carries a code, else the innermost one. */
function rootCause(error: unknown): unknown {
  let found = error;
  let current = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    if (codeOf(current) !== undefined) found = current;
    else if (codeOf(found) === undefined) found = current;
    current = current.cause;
  }
  return found;
}

function codeOf(error: unknown): string | undefined {
  const code: unknown = error instanceof Error ? Reflect.get(error, 'code') : undefined;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/** A few words for an error without a code: its name, and its message when it quotes no URL. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'failed';
  const message = withoutUrlSecrets(error.message);
  return message === '' || message === 'fetch failed' ? error.name : `${error.name}: ${message}`;
}

/** `error` itself, or a plain copy without the `user:pass@` its message quoted. */
function scrubbed(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const message = withoutUrlSecrets(error.message);
  if (message === error.message && !(error.cause instanceof Error)) return error;
  const copy = new Error(message);
  copy.name = error.name;
  const code = codeOf(error);
  if (code !== undefined) Object.assign(copy, { code });
  return copy;
}
