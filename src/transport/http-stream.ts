import ky, { isKyError } from 'ky';
import { Observable } from 'rxjs';
import { NetworkError, RxAgentError } from '../core/index.ts';
import { type ErrorBodyParser, httpError } from './http-error.ts';

/** One streaming POST request. */
export interface HttpRequestOptions {
  /** Names the provider in errors. */
  provider: string;
  url: string;
  /** Serialised to JSON once per attempt. */
  body: unknown;
  headers?: Record<string, string>;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
  /** Finishes the request before it is sent (e.g. SigV4 signing); returns the headers to send. */
  prepare?: (request: PreparedRequest) => Promise<Record<string, string>>;
  /** Pulls the provider's message and error type out of an error body. */
  parseErrorBody?: ErrorBodyParser;
}

/** The request as `prepare` sees it. */
export interface PreparedRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

/**
 * POSTs a JSON body and emits the response body's bytes as they arrive. Cold: each subscription
 * sends one request with its own `AbortController`; unsubscribing aborts the request and cancels
 * the body reader. A non-2xx answer errors with `ApiError`/`RateLimitError`, a failed connection
 * with `NetworkError`.
 * @example httpStream({ provider: 'openai', url, body }).pipe(decodeSSE())
 */
export function httpStream(options: HttpRequestOptions): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    const controller = new AbortController();
    const { signal } = controller;
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

    const run = async () => {
      let body: string;
      try {
        body = JSON.stringify(options.body);
      } catch (cause) {
        // A caller's bug (a BigInt, a cycle): not a network failure, and never worth a retry.
        throw new RxAgentError(
          `${options.provider}: the request body cannot be serialised as JSON`,
          'invalid_request',
          { cause },
        );
      }
      let headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
      if (options.prepare)
        headers = await options.prepare({ url: options.url, method: 'POST', headers, body });
      let response: Response;
      try {
        response = await ky.post(options.url, {
          body,
          headers,
          signal,
          retry: 0,
          timeout: false,
          throwHttpErrors: false,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        });
      } catch (error) {
        // ky's error carries the Request, headers included (API keys, signatures): keep only the
        // underlying fetch failure. The URL loses its query and credentials (keys travel there too).
        throw new NetworkError(`${options.provider}: request to ${endpointOf(options.url)} failed`, {
          provider: options.provider,
          cause: isKyError(error) ? error.cause : error,
        });
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw httpError(options.provider, response.status, response.headers, text, options.parseErrorBody);
      }
      if (!response.body)
        throw new NetworkError(`${options.provider}: response has no body`, { provider: options.provider });
      reader = response.body.getReader();
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (cause) {
          throw new NetworkError(`${options.provider}: connection lost while reading the response`, {
            provider: options.provider,
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
          : new NetworkError(`${options.provider}: ${String(error)}`, {
              provider: options.provider,
              cause: error,
            }),
      );
    });

    return () => {
      controller.abort();
      reader?.cancel().catch(() => undefined);
    };
  });
}

/** `url` without credentials, query or fragment, for messages; never the URL itself when it does not parse. */
function endpointOf(url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}
