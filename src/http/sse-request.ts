import { Observable } from 'rxjs';
import { ApiError, NetworkError, ReplayExpiredError, RunNotFoundError } from '../core/index.ts';
import { networkFailure } from '../transport/network-failure.ts';
import { isRedirect, redirectRefused } from '../transport/redirect-refused.ts';
import { readErrorBody } from '../transport/read-error-body.ts';
import { redactBody, redactedHeaders, requestSecrets } from '../transport/request-secrets.ts';
import { secretHeaderNames, sseRequestHeaders } from './sse-request-headers.ts';

/** One SSE request: where, how, and with which `fetch`. */
export interface SSERequest {
  url: string | URL;
  init: RequestInit;
  fetch: typeof globalThis.fetch;
}

/**
 * The body of one SSE response as bytes: from `response` when given, else from a fresh request.
 * Cold; unsubscribing aborts the request and cancels the reader. A failed connection or read is a
 * `NetworkError`; `onResponse` sees a 2xx answer before its body; a non-2xx answer is the server's `RunNotFoundError` / `ReplayExpiredError` when
 * its JSON body names one, else an `ApiError`.
 */
export function sseBody(
  request: SSERequest,
  response?: Response,
  onResponse?: (response: Response) => void,
): Observable<Uint8Array> {
  return new Observable<Uint8Array>((subscriber) => {
    const controller = new AbortController();
    const signals = [controller.signal, ...(request.init.signal ? [request.init.signal] : [])];
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const run = async () => {
      // Checked before anything is sent (and before a given response is read: a resume sends them);
      // the caller's own `headers` are what `fetch` gets, as given.
      const headers = sseRequestHeaders(request.init.headers);
      let answer: Response;
      try {
        answer =
          response ??
          // A redirect is answered, not followed (unless the caller chose `redirect`): fetch would
          // carry the caller's headers (x-api-key, cookies set by hand) to whatever host it names.
          (await request.fetch(request.url, {
            redirect: 'manual',
            ...request.init,
            signal: AbortSignal.any(signals),
          }));
      } catch (cause) {
        throw networkFailure('sse', String(request.url), cause);
      }
      if (isRedirect(answer) || !answer.ok) {
        // A careless server quotes the request back (a key in a header, a `?key=` URL), in its
        // body, a header or a redirect's Location: cut what it was sent from what the error keeps.
        const url = String(response?.url ?? request.url);
        const secrets = sseRequestSecrets(url, headers);
        if (isRedirect(answer)) throw redirectRefused('sse', answer.url || url, answer, secrets);
        throw await errorOf(answer, secrets);
      }
      onResponse?.(answer);
      if (!answer.body) return;
      reader = answer.body.getReader();
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (cause) {
          throw new NetworkError('The SSE connection broke', { provider: 'sse', cause });
        }
        if (chunk.done) return;
        subscriber.next(chunk.value);
      }
    };
    run().then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      controller.abort();
      reader?.cancel().catch(() => undefined);
      if (response && !reader) response.body?.cancel().catch(() => undefined);
    };
  });
}

async function errorOf(response: Response, secrets: readonly string[]): Promise<Error> {
  const text = redactBody(await readErrorBody(response), secrets);
  let error: unknown;
  try {
    error = Reflect.get(JSON.parse(text) as object, 'error');
  } catch {
    error = undefined;
  }
  const field = (name: string): string | undefined => {
    const value: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, name) : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  const runId = field('runId');
  const lastEventId = field('lastEventId');
  if (field('name') === 'RunNotFoundError' && runId !== undefined) return new RunNotFoundError(runId);
  if (field('name') === 'ReplayExpiredError' && runId !== undefined && lastEventId !== undefined)
    return new ReplayExpiredError(runId, lastEventId);
  return new ApiError(field('message') ?? `SSE request failed with status ${response.status}`, {
    status: response.status,
    provider: 'sse',
    body: text.slice(0, 8192),
    headers: redactedHeaders(response.headers, secrets),
  });
}

/**
 * The secrets an SSE request carries (its URL's query, every header but the plain ones), to cut
 * from what a server quotes back: in an error answer, or in an error it reports in the stream.
 * @example redactError(error, sseRequestSecrets(url, new Headers(init.headers)))
 */
export function sseRequestSecrets(url: string, headers: Headers): string[] {
  return requestSecrets(url, [headers], secretHeaderNames(headers));
}
