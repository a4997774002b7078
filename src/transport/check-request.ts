import { InvalidRequestError } from '../core/index.ts';
import { mergeHeaders } from './merge-headers.ts';

/** The key a request cannot go without, and where the caller supplies it. */
export interface RequiredCredential {
  /** Headers that carry it; any one of them will do, e.g. `['x-api-key', 'authorization']`. */
  headers: readonly string[];
  /** The factory option that sets it, e.g. `apiKey`. */
  option: string;
  /** The environment variables read when the option is absent, in order, e.g. `['OPENAI_API_KEY']`. */
  environmentVariables?: readonly string[];
}

/** A request that passed {@link checkRequest}: its serialised body and this call's own headers. */
export interface CheckedRequest {
  body: string;
  headers?: Headers;
}

/**
 * Finds a caller's mistake before anything is sent, as an `InvalidRequestError`: a URL that is not
 * http(s) or carries `user:pass@`, a call header `Headers` refuses, a missing credential (in
 * neither the model's nor the call's headers), a body `JSON.stringify` refuses (a BigInt, a cycle).
 * @param modelHeaders the client's merged headers
 * @example const { body, headers } = checkRequest('openai', modelHeaders, credential, { url, body: request })
 */
export function checkRequest(
  provider: string,
  modelHeaders: Headers,
  credential: RequiredCredential | undefined,
  request: { url: string; body: unknown; headers?: Readonly<Record<string, string>> },
): CheckedRequest {
  const url = parseHttpUrl(request.url);
  if (url === undefined) {
    throw new InvalidRequestError(`${provider}: the request URL is not a valid http(s) URL`, {
      provider,
      option: 'baseURL',
    });
  }
  if (url.username !== '' || url.password !== '') {
    // fetch refuses such a URL with a TypeError that quotes it whole: name only the origin.
    throw new InvalidRequestError(
      `${provider}: the request URL to ${url.origin} carries a user name or password (user:pass@); ` +
        'send credentials in the apiKey or headers option instead',
      { provider, option: 'baseURL' },
    );
  }
  const headers = request.headers && mergeHeaders(provider, 'headers', request.headers);
  if (credential && !credential.headers.some((name) => modelHeaders.has(name) || headers?.has(name))) {
    throw missingCredential(provider, credential);
  }
  let body: string;
  try {
    body = JSON.stringify(request.body);
  } catch (cause) {
    throw new InvalidRequestError(`${provider}: the request body cannot be serialised as JSON`, {
      provider,
      cause,
    });
  }
  return headers === undefined ? { body } : { body, headers };
}

function missingCredential(provider: string, credential: RequiredCredential): InvalidRequestError {
  const [env] = credential.environmentVariables ?? [];
  const variables = credential.environmentVariables?.join(' or ');
  return new InvalidRequestError(
    `${provider}: no API key: pass the ${credential.option} option${variables ? ` or set ${variables}` : ''}`,
    { provider, option: credential.option, ...(env === undefined ? {} : { environmentVariable: env }) },
  );
}

function parseHttpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
