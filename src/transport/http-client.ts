import ky, { type BeforeRequestHook, isKyError, type KyInstance } from 'ky';
import { Observable } from 'rxjs';
import { InvalidRequestError, NetworkError, RxAgentError } from '../core/index.ts';
import { type ErrorBodyParser, httpError } from './http-error.ts';
import { mergeHeaders } from './merge-headers.ts';
import { readErrorBody } from './read-error-body.ts';

/** The key a request cannot go without, and where the caller supplies it. */
export interface RequiredCredential {
  /** Headers that carry it; any one of them will do, e.g. `['x-api-key', 'authorization']`. */
  headers: readonly string[];
  /** The factory option that sets it, e.g. `apiKey`. */
  option: string;
  /** The environment variables read when the option is absent, in order, e.g. `['OPENAI_API_KEY']`. */
  environmentVariables?: readonly string[];
}

/** Options of {@link httpClient}: everything fixed for one model. */
export interface HttpClientOptions {
  /** Names the provider in errors. */
  provider: string;
  /** The provider's own headers (key, version), under `headers`. */
  defaultHeaders?: Readonly<Record<string, string>>;
  /** The model's `headers` option, merged case-insensitively over `defaultHeaders`. */
  headers?: Readonly<Record<string, string>>;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
  /** Finishes each request before it is sent (SigV4 signing): a ky `beforeRequest` hook. */
  beforeRequest?: BeforeRequestHook;
  /** Pulls the provider's message and error type out of an error body. */
  parseErrorBody?: ErrorBodyParser;
  /** Without this header (from any source), a request errors with `InvalidRequestError` unsent. */
  credential?: RequiredCredential;
}

/** One streaming POST of an {@link HttpClient}. */
export interface HttpStreamRequest {
  url: string;
  /** Serialised to JSON on subscribe. */
  body: unknown;
  /** This call's headers, merged case-insensitively over the client's. */
  headers?: Readonly<Record<string, string>>;
  /** Called with every response as it arrives, before its body is read (e.g. for its request id). */
  onResponse?: (response: Response) => void;
}

/** The HTTP side of one model: a ky instance and the request checks. */
export interface HttpClient {
  readonly provider: string;
  /**
   * POSTs `request.body` as JSON and emits the response body's bytes as they arrive. Cold: each
   * subscription sends one request with its own `AbortController`; unsubscribing aborts it and
   * cancels the body reader. Before anything is sent, a bad URL, header or body, or a missing
   * credential, errors with `InvalidRequestError`; a non-2xx answer errors with
   * `ApiError`/`RateLimitError`; a failed connection with `NetworkError`.
   */
  stream(request: HttpStreamRequest): Observable<Uint8Array>;
}

/**
 * The HTTP client of one model: one ky instance (`ky.create`) holding the merged headers
 * (`content-type: application/json` < `defaultHeaders` < `headers`, case-insensitive), the
 * `fetch` and the `beforeRequest` hook, with ky's retries and timeout off: rxagent retries whole
 * streams (never after the first event) and times out between bytes itself. A bad header in the
 * options is reported by every `stream` subscription, not thrown here.
 * @example
 * const client = httpClient({ provider: 'openai', defaultHeaders: { authorization: `Bearer ${key}` } });
 * client.stream({ url, body }).pipe(decodeSSE())
 */
export function httpClient(options: HttpClientOptions): HttpClient {
  const { provider, credential } = options;
  let setup: { instance: KyInstance; headers: Headers } | InvalidRequestError;
  try {
    const headers = mergeHeaders(
      provider,
      'headers',
      { 'content-type': 'application/json' },
      options.defaultHeaders,
      options.headers,
    );
    const instance = ky.create({
      headers,
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.beforeRequest ? { hooks: { beforeRequest: [options.beforeRequest] } } : {}),
    });
    setup = { instance, headers };
  } catch (error) {
    setup = InvalidRequestError.is(error)
      ? error
      : new InvalidRequestError(`${provider}: invalid HTTP options`, { provider, cause: error });
  }

  const prepare = (request: HttpStreamRequest): Prepared => {
    if (InvalidRequestError.is(setup)) throw setup;
    const url = parseUrl(request.url);
    if (url === undefined) {
      throw new InvalidRequestError(`${provider}: the request URL is not a valid http(s) URL`, {
        provider,
        option: 'baseURL',
      });
    }
    const headers = request.headers && mergeHeaders(provider, 'headers', request.headers);
    if (credential && !credential.headers.some((name) => setup.headers.has(name) || headers?.has(name))) {
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
    return headers === undefined
      ? { instance: setup.instance, body }
      : { instance: setup.instance, body, headers };
  };

  const stream = (request: HttpStreamRequest): Observable<Uint8Array> =>
    new Observable<Uint8Array>((subscriber) => {
      let prepared: Prepared;
      try {
        prepared = prepare(request);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      const { instance } = prepared;
      const controller = new AbortController();
      const { signal } = controller;
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

      const run = async () => {
        let response: Response;
        try {
          response = await instance.post(request.url, {
            body: prepared.body,
            signal,
            ...(prepared.headers ? { headers: prepared.headers } : {}),
          });
        } catch (error) {
          if (RxAgentError.is(error)) throw error;
          // ky's error carries the Request, headers included (API keys, signatures): keep only the
          // underlying fetch failure. The URL loses its query and credentials (keys travel there too).
          throw new NetworkError(`${provider}: request to ${endpointOf(request.url)} failed`, {
            provider,
            cause: isKyError(error) ? error.cause : error,
          });
        }
        request.onResponse?.(response);
        if (!response.ok) {
          const text = await readErrorBody(response);
          throw httpError(provider, response.status, response.headers, text, options.parseErrorBody);
        }
        if (!response.body) throw new NetworkError(`${provider}: response has no body`, { provider });
        reader = response.body.getReader();
        for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await reader.read();
          } catch (cause) {
            throw new NetworkError(`${provider}: connection lost while reading the response`, {
              provider,
              cause,
            });
          }
          if (chunk.done) break;
          subscriber.next(chunk.value);
          if (subscriber.closed) return;
        }
        subscriber.complete();
      };

      run().catch((error: unknown) => {
        if (signal.aborted) return;
        subscriber.error(
          RxAgentError.is(error)
            ? error
            : new NetworkError(`${provider}: ${String(error)}`, { provider, cause: error }),
        );
      });

      return () => {
        controller.abort();
        reader?.cancel().catch(() => undefined);
      };
    });

  return Object.freeze({ provider, stream });
}

/** A request checked and ready to send. */
interface Prepared {
  instance: KyInstance;
  body: string;
  headers?: Headers;
}

function missingCredential(provider: string, credential: RequiredCredential): InvalidRequestError {
  const [env] = credential.environmentVariables ?? [];
  const variables = credential.environmentVariables?.join(' or ');
  return new InvalidRequestError(
    `${provider}: no API key: pass the ${credential.option} option${variables ? ` or set ${variables}` : ''}`,
    { provider, option: credential.option, ...(env === undefined ? {} : { environmentVariable: env }) },
  );
}

function parseUrl(url: string): URL | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `url` without credentials, query or fragment, for messages. */
function endpointOf(url: string): string {
  const { origin, pathname } = new URL(url);
  return `${origin}${pathname}`;
}
