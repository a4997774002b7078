import ky, { type BeforeRequestHook, isKyError, type KyInstance } from 'ky';
import { Observable } from 'rxjs';
import { InvalidRequestError, NetworkError, RxAgentError } from '../core/index.ts';
import { type CheckedRequest, checkRequest, type RequiredCredential } from './check-request.ts';
import { BODY_TEXT, fetchWithBody } from './fetch-with-body.ts';
import { type ErrorBodyParser, httpError } from './http-error.ts';
import { mergeHeaders } from './merge-headers.ts';
import { networkFailure } from './network-failure.ts';
import { readErrorBody } from './read-error-body.ts';
import { isRedirect, redirectRefused } from './redirect-refused.ts';
import { redactSecrets, requestSecrets } from './request-secrets.ts';

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
  const setup = createInstance(options);

  const stream = (request: HttpStreamRequest): Observable<Uint8Array> =>
    new Observable<Uint8Array>((subscriber) => {
      if (InvalidRequestError.is(setup)) {
        subscriber.error(setup);
        return;
      }
      const { instance } = setup;
      let prepared: CheckedRequest;
      try {
        prepared = checkRequest(provider, setup.headers, credential, request);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      const controller = new AbortController();
      const { signal } = controller;
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

      const run = async () => {
        let response: Response;
        try {
          const init = {
            body: prepared.body,
            [BODY_TEXT]: prepared.body,
            signal,
            ...(prepared.headers ? { headers: prepared.headers } : {}),
          };
          response = await instance.post(request.url, init);
        } catch (error) {
          if (RxAgentError.is(error)) throw error;
          // ky's error carries the Request, headers included (API keys, signatures): keep only the
          // underlying fetch failure.
          throw networkFailure(provider, request.url, isKyError(error) ? error.cause : error);
        }
        request.onResponse?.(response);
        if (isRedirect(response)) throw redirectRefused(provider, request.url, response);
        if (!response.ok) {
          // A careless server quotes the request back (its key, a ?key= URL): cut what it sent.
          const secrets = requestSecrets(request.url, [setup.headers, prepared.headers], credential?.headers);
          const text = redactSecrets(await readErrorBody(response), secrets);
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
        subscriber.error(RxAgentError.is(error) ? error : networkFailure(provider, request.url, error));
      });

      return () => {
        controller.abort();
        reader?.cancel().catch(() => undefined);
      };
    });

  return Object.freeze({ provider, stream });
}

/** The model's ky instance and merged headers, or the mistake in its options. */
function createInstance(
  options: HttpClientOptions,
): { instance: KyInstance; headers: Headers } | InvalidRequestError {
  const { provider } = options;
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
      // A redirect is answered, never followed: fetch would re-send the body and every header but
      // Authorization (x-api-key, api-key, x-goog-api-key, SigV4) to the host it names.
      redirect: 'manual',
      fetch: fetchWithBody(options.fetch),
      ...(options.beforeRequest ? { hooks: { beforeRequest: [options.beforeRequest] } } : {}),
    });
    return { instance, headers };
  } catch (error) {
    return InvalidRequestError.is(error)
      ? error
      : new InvalidRequestError(`${provider}: invalid HTTP options`, { provider, cause: error });
  }
}
