import { concat, defer, EMPTY, map, type Observable, retry, takeWhile, tap, throwError, timer } from 'rxjs';
import type { AgentEvent } from '../agent/agent-event.ts';
import {
  ApiError,
  IncompleteStreamError,
  NetworkError,
  RunFailedError,
  StreamParseError,
} from '../core/index.ts';
import { cancelOnAbort, decodeSSE } from '../operators/index.ts';
import { sseBody, type SSERequest } from './sse-request.ts';

/** Options of {@link fromSSE}: a `RequestInit` for the first request, plus how to resume. */
export interface FromSSEInit extends RequestInit {
  /** Where to reconnect after a drop (GET with `Last-Event-ID`). @default the first answer's `Content-Location`, else the first request's URL */
  resumeUrl?: string | URL;
  /** Reconnections in a row (without an event between them) before giving up. @default 5 */
  maxReconnects?: number;
  /** Wait before reconnecting until the server sends `retry:`. @default 1000 */
  retryMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
}

/**
 * Reads a server's SSE stream of agent events (from `writeSSE`/`toSSEResponse`), in browsers and
 * Node. Cold: each subscription sends its own request; unsubscribing aborts it. When the connection
 * drops before the server's `event: end`, it reconnects to `resumeUrl` with GET and
 * `Last-Event-ID` (or to the first answer's `Content-Location`, when the server names the run's
 * URL there), waiting the server's `retry:` time, at most `maxReconnects` times in a row; the
 * server (a `RunRegistry`) sends only what came after that id, so every event arrives exactly once.
 * Where that cannot be (a POST cut before its first id with no URL to resume at, or a stream whose
 * events carry no `id:`) it does not reconnect: it ends with `NetworkError` rather than start a
 * second run or repeat events. Aborting `init.signal` ends it at once with the signal's reason.
 * A run that failed on the server errors with `RunFailedError`; an unknown or expired run with
 * `RunNotFoundError` / `ReplayExpiredError`.
 * @param urlOrResponse the stream's URL, or a `Response` already fetched (e.g. from a POST)
 * @param init the first request's options, and the resume settings
 * @example
 * fromSSE('/api/chat', { method: 'POST', body: JSON.stringify({ message }) })
 *   .subscribe((event) => event.type === 'text-delta' && append(event.text))
 */
export function fromSSE(
  urlOrResponse: string | URL | Response,
  init: FromSSEInit = {},
): Observable<AgentEvent> {
  const {
    resumeUrl,
    maxReconnects = 5,
    retryMs: initialRetryMs = 1000,
    fetch: fetchImpl,
    ...requestInit
  } = init;
  return defer(() => {
    const response = urlOrResponse instanceof Response ? urlOrResponse : undefined;
    const url = urlOrResponse instanceof Response ? urlOrResponse.url : urlOrResponse;
    const fetch = fetchImpl ?? globalThis.fetch.bind(globalThis);
    const first: SSERequest = { url, init: requestInit, fetch };
    const isGet = response === undefined && (requestInit.method ?? 'GET').toUpperCase() === 'GET';
    let lastEventId: string | undefined;
    // Where the server says the run lives (`Content-Location` of the first answer), for resuming.
    let runUrl: string | undefined;
    const noteLocation = (answer: Response) => {
      const location = answer.headers.get('content-location');
      if (location) runUrl = new URL(location, answer.url || String(url)).href;
    };
    let retryMs = initialRetryMs;
    let attempt = 0;
    // Events seen without an id: a reconnection could not say where to resume.
    let unnumbered = false;
    /** Where nothing names the place to resume, a reconnection would repeat or restart the run. */
    const unresumable = () =>
      lastEventId === undefined &&
      (unnumbered || (!isGet && resumeUrl === undefined && runUrl === undefined));

    const resume = (): SSERequest => {
      const headers = new Headers(requestInit.headers);
      headers.set('accept', 'text/event-stream');
      if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
      const { body: _body, method: _method, ...rest } = requestInit;
      return { url: resumeUrl ?? runUrl ?? url, init: { ...rest, method: 'GET', headers }, fetch };
    };

    const connect = defer(() => {
      const n = attempt++;
      let ended = false;
      return concat(
        sseBody(
          n === 0 ? first : resume(),
          n === 0 ? response : undefined,
          n === 0 ? noteLocation : undefined,
        ).pipe(
          decodeSSE({ onRetry: (ms) => (retryMs = ms) }),
          tap((message) => {
            if (message.event === 'end') ended = true;
          }),
          takeWhile((message) => message.event !== 'end'),
          map((message) => {
            if (message.event === 'error') throw failureOf(message.data);
            const event = parseEvent(message.data);
            if (message.id !== undefined) lastEventId = message.id;
            else if (lastEventId === undefined) unnumbered = true;
            if (event.type === 'agent-completed') ended = true;
            return event;
          }),
          // The run's last event: done, whether or not the server closes the stream.
          takeWhile((event) => event.type !== 'agent-completed', true),
        ),
        // A stream that stops before `event: end` (or the run's last event) was cut off.
        defer(() =>
          ended ? EMPTY : throwError(() => new IncompleteStreamError('The SSE stream was cut off')),
        ),
      );
    });
    return connect.pipe(
      retry({
        count: maxReconnects,
        resetOnSuccess: true,
        delay: (error: unknown) => {
          if (!isDrop(error)) return throwError(() => error);
          // Sending a POST again would start a second run; a GET without ids would repeat events.
          if (unresumable()) {
            return throwError(
              () =>
                new NetworkError('The SSE connection dropped where it cannot be resumed', {
                  provider: 'sse',
                  cause: error,
                }),
            );
          }
          return timer(retryMs);
        },
      }),
      // The caller's abort is a stop, not a drop to reconnect after.
      cancelOnAbort(requestInit.signal ?? undefined),
    );
  });
}

/** A broken connection or a server that is briefly down: worth reconnecting. */
function isDrop(error: unknown): boolean {
  return (
    NetworkError.is(error) ||
    IncompleteStreamError.is(error) ||
    (ApiError.is(error) && [502, 503, 504].includes(error.status))
  );
}

function parseEvent(data: string): AgentEvent {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (cause) {
    throw new StreamParseError('An SSE event is not JSON', data, { cause });
  }
  if (typeof value !== 'object' || value === null || typeof Reflect.get(value, 'type') !== 'string') {
    throw new StreamParseError('An SSE event is not an agent event', data);
  }
  return value as AgentEvent;
}

function failureOf(data: string): RunFailedError {
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    body = undefined;
  }
  const field = (name: string): string | undefined => {
    const value: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, name) : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  return new RunFailedError(
    field('message') ?? 'The run failed',
    field('name') ?? 'Error',
    field('code') ?? 'unknown',
  );
}
