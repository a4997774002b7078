import { Observable } from 'rxjs';
import { InvalidRequestError, NetworkError, RxAgentError } from '../core/index.ts';
import { type CheckedRequest, checkRequest, type RequiredCredential } from './check-request.ts';
import { type ErrorBodyParser, httpError } from './http-error.ts';
import { mergeHeaders } from './merge-headers.ts';
import { networkFailure } from './network-failure.ts';
import { readErrorBody } from './read-error-body.ts';
import { isRedirect, redirectRefused } from './redirect-refused.ts';
import { redactBody, redactedHeaders, requestSecrets } from './request-secrets.ts';

/** A request about to be sent, as {@link HttpClientOptions.sign} sees it. */
export interface OutgoingRequest {
  readonly url: string;
  readonly method: string;
  /**
   * Every header it will be sent with: the client's, the model's and this call's, merged. What the
   * signer sets here is sent too.
   */
  readonly headers: Headers;
  /** The exact body text that will be sent. */
  readonly body: string;
  /**
   * Aborted when the request is given up (the subscriber left, the idle timeout fired) while the
   * signer still works: pass it on to what it waits for (a credentials endpoint).
   */
  readonly signal: AbortSignal;
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
  /**
   * Finishes each request just before it is sent (SigV4 signing): it sees every header and the
   * exact body, and may set headers. A throw or rejection errors the stream, the request unsent (an
   * `RxAgentError` as it is, anything else as a `NetworkError` whose cause it is).
   * @example
   * sign: async (request) => {
   *   request.headers.set('authorization', await signatureOf(request.method, request.url, request.body));
   * }
   */
  sign?: (request: OutgoingRequest) => Promise<void> | void;
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
  /**
   * Called with every response as it arrives, before its body is read (e.g. for its request id),
   * and the secrets the request carried (`requestSecrets`, computed when called): what to cut from
   * an error the body reports (an error event inside a 200 stream).
   */
  onResponse?: (response: Response, secrets: () => readonly string[]) => void;
}

/** The HTTP side of one model: its merged headers and the request checks, over `fetch`. */
export interface HttpClient {
  readonly provider: string;
  /**
   * POSTs `request.body` as JSON and emits the response body's bytes as they arrive. Cold: each
   * subscription sends one request with its own `AbortController`; unsubscribing aborts it and
   * cancels the body reader. Before anything is sent, a bad URL, header or body, or a missing
   * credential, errors with `InvalidRequestError`; a non-2xx answer errors with
   * `ApiError`/`RateLimitError`; a redirect with `RedirectRefusedError`; a failed connection with
   * `NetworkError`.
   */
  stream(request: HttpStreamRequest): Observable<Uint8Array>;
}

/**
 * The HTTP client of one model: the merged headers (`content-type: application/json` <
 * `defaultHeaders` < `headers`, case-insensitive; each call's headers over them), the `fetch` (the
 * global one looked up per request unless given) and the `sign` step. It calls `fetch` itself with
 * the URL and the body text, without retries or a timeout: rxagent retries whole streams (never
 * after the first event) and times out between bytes itself. A bad header in the options is
 * reported by every `stream` subscription, not thrown here.
 * @example
 * const client = httpClient({ provider: 'openai', defaultHeaders: { authorization: `Bearer ${key}` } });
 * client.stream({ url, body }).pipe(decodeSSE())
 */
export function httpClient(options: HttpClientOptions): HttpClient {
  const { provider, credential, sign } = options;
  const clientHeaders = clientHeadersOf(options);

  const stream = (request: HttpStreamRequest): Observable<Uint8Array> =>
    new Observable<Uint8Array>((subscriber) => {
      if (InvalidRequestError.is(clientHeaders)) {
        subscriber.error(clientHeaders);
        return;
      }
      let prepared: CheckedRequest;
      try {
        prepared = checkRequest(provider, clientHeaders, credential, request);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      const { url } = request;
      const { body } = prepared;
      // A copy per request: the client's headers stay as they are whatever this call or `sign` sets.
      const headers = new Headers(clientHeaders);
      prepared.headers?.forEach((value, name) => {
        headers.set(name, value);
      });
      const controller = new AbortController();
      const { signal } = controller;
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

      const run = async () => {
        let response: Response;
        try {
          if (sign) {
            await sign({ url, method: 'POST', headers, body, signal });
            if (signal.aborted) return;
          }
          // Looked up per request, so a fetch installed later is the one used. A redirect is
          // answered, never followed: fetch would re-send the body and every header but
          // Authorization (x-api-key, api-key, x-goog-api-key, SigV4) to the host it names.
          response = await (options.fetch ?? globalThis.fetch)(url, {
            method: 'POST',
            headers,
            body,
            signal,
            redirect: 'manual',
          });
        } catch (error) {
          if (RxAgentError.is(error)) throw error;
          throw networkFailure(provider, url, error);
        }
        // A careless server quotes the request back (its key, a signature, a ?key= URL), in its
        // body, a header or a redirect's Location: cut what it was sent from what the error keeps.
        let carried: readonly string[] | undefined;
        const secretsOf = () => (carried ??= requestSecrets(url, [headers], credential?.headers));
        request.onResponse?.(response, secretsOf);
        if (isRedirect(response) || !response.ok) {
          const secrets = secretsOf();
          if (isRedirect(response)) throw redirectRefused(provider, url, response, secrets);
          const text = redactBody(await readErrorBody(response), secrets);
          const kept = redactedHeaders(response.headers, secrets);
          throw httpError(provider, response.status, kept, text, options.parseErrorBody);
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
        subscriber.error(RxAgentError.is(error) ? error : networkFailure(provider, url, error));
      });

      return () => {
        controller.abort();
        reader?.cancel().catch(() => undefined);
      };
    });

  return Object.freeze({ provider, stream });
}

/** The model's merged headers, or the mistake in its options. */
function clientHeadersOf(options: HttpClientOptions): Headers | InvalidRequestError {
  const { provider } = options;
  try {
    return mergeHeaders(
      provider,
      'headers',
      { 'content-type': 'application/json' },
      options.defaultHeaders,
      options.headers,
    );
  } catch (error) {
    return InvalidRequestError.is(error)
      ? error
      : new InvalidRequestError(`${provider}: invalid HTTP options`, { provider, cause: error });
  }
}
