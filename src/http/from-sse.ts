import {
  catchError,
  concat,
  defer,
  EMPTY,
  map,
  type MonoTypeOperatorFunction,
  type Observable,
  retry,
  takeWhile,
  tap,
  throwError,
  timeout,
  timer,
} from 'rxjs';
import type { AgentEvent } from '../agent/agent-event.ts';
import {
  ApiError,
  IncompleteStreamError,
  NetworkError,
  ReplayExpiredError,
  RunCancelledError,
  RunFailedError,
  RunLostError,
  RunNotFoundError,
  type RxAgentError,
  StreamParseError,
} from '../core/index.ts';
import { cancelOnAbort, decodeSSE } from '../operators/index.ts';
import { parseEventId } from './sequenced-event.ts';
import { sseBody, type SSERequest, sseRequestSecrets } from './sse-request.ts';
import { redactError } from '../transport/redact-error.ts';

/** Options of {@link fromSSE}: a `RequestInit` for the first request, plus how to resume. */
export interface FromSSEInit extends RequestInit {
  /** Where to reconnect after a drop (GET with `Last-Event-ID`). @default the first answer's `Content-Location`, else the first request's URL */
  resumeUrl?: string | URL;
  /** Reconnections in a row (without an event between them) before giving up. @default Infinity (`reconnectForMs` bounds them) */
  maxReconnects?: number;
  /** How long to keep reconnecting after a drop (without an event between): a deploy or a network blip outlasts a few tries. @default 60_000 */
  reconnectForMs?: number;
  /** Wait before the first reconnection until the server sends `retry:`; each next one waits twice as long (with jitter), up to 30 s. @default 1000 */
  retryMs?: number;
  /**
   * Silence (no event, no heartbeat) after which the connection counts as dropped and is resumed:
   * a half-open connection sends nothing. Above the server's heartbeat (`writeSSE` sends one every
   * 15 s by default); 0 for none. @default 45_000
   */
  idleTimeoutMs?: number;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
}

/**
 * Reads a server's SSE stream of agent events (from `writeSSE`/`toSSEResponse`), in browsers and
 * Node. Cold: each subscription sends its own request; unsubscribing aborts it. When the connection
 * drops before the server's `event: end`, it reconnects to `resumeUrl` with GET and
 * `Last-Event-ID` (or to the first answer's `Content-Location`, when the server names the run's
 * URL there), first after the server's `retry:` time, then backing off exponentially with jitter,
 * for `reconnectForMs` (and at most `maxReconnects` times) in a row; silence longer than
 * `idleTimeoutMs` (a half-open connection: not even heartbeats) counts as a drop; the
 * server (a `RunRegistry`) sends only what came after that id, so every event arrives exactly once.
 * Where that cannot be (a POST cut before its first id with no URL to resume at, or a stream whose
 * events carry no `id:`) it does not reconnect: it ends with `NetworkError` rather than start a
 * second run or repeat events. Aborting `init.signal` ends it at once with the signal's reason.
 * A run that failed on the server errors with `RunFailedError`; an unknown or expired run with
 * `RunNotFoundError` / `ReplayExpiredError` (an HTTP 404/410 or an `event: error` naming them); a
 * run stopped on the server (`event: end` with reason `cancelled`) with `RunCancelledError`; a run
 * whose server died with `RunLostError`. A header `fetch` would refuse (a line break) is an
 * `InvalidRequestError` naming it, before anything is sent. Errors keep nothing of the request's
 * secrets a server quoted back: its query values and the values of every header set here but the
 * plain ones (`accept`, `content-type`, …) are cut from their messages, bodies and headers.
 * @param urlOrResponse the stream's URL, or a `Response` already fetched (e.g. from a POST: then
 *   the secrets cut are those of its URL and of `init.headers`, not others your `fetch` added)
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
    maxReconnects = Infinity,
    reconnectForMs = 60_000,
    idleTimeoutMs = 45_000,
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
      if (!location) return;
      let base: URL;
      let named: URL;
      try {
        base = new URL(answer.url || String(url), globalThis.location?.href);
        named = new URL(location, base);
      } catch {
        // Not a URL (and the platform's error would quote it): it names no place to resume.
        return;
      }
      // A resume carries the caller's headers: only to the origin they were first sent to.
      if (named.origin === base.origin) runUrl = named.href;
    };
    let retryMs = initialRetryMs;
    // The secrets of every request sent so far: a resumed connection's server may quote the first.
    const sent = new Set<string>();
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
      const request = n === 0 ? first : resume();
      for (const secret of secretsOf(request)) sent.add(secret);
      return concat(
        sseBody(request, n === 0 ? response : undefined, n === 0 ? noteLocation : undefined).pipe(
          silenceIsADrop(idleTimeoutMs),
          decodeSSE({ onRetry: (ms) => (retryMs = ms) }),
          tap((message) => {
            if (message.event !== 'end') return;
            ended = true;
            if (message.data.includes('"cancelled"')) throw new RunCancelledError(runIdOf(lastEventId));
          }),
          takeWhile((message) => message.event !== 'end'),
          map((message) => {
            if (message.event === 'error') throw failureOf(message.data);
            const event = parseEvent(message.data);
            if (message.id !== undefined) {
              lastEventId = message.id;
              dropSince = undefined;
            } else if (lastEventId === undefined) unnumbered = true;
            if (event.type === 'agent-completed') ended = true;
            return event;
          }),
          // The run's last event: done, whether or not the server closes the stream.
          takeWhile((event) => event.type !== 'agent-completed', true),
          // What the server reports in the stream (`event: error`, an event that does not parse)
          // may quote a request: their secrets cut, as from an error answer.
          catchError((error: unknown) =>
            throwError(() =>
              redactError(
                error,
                [...sent].sort((a, b) => b.length - a.length),
              ),
            ),
          ),
        ),
        // A stream that stops before `event: end` (or the run's last event) was cut off.
        defer(() =>
          ended ? EMPTY : throwError(() => new IncompleteStreamError('The SSE stream was cut off')),
        ),
      );
    });
    // When the drops in a row began, and how many: the budget of reconnections is counted from there.
    let dropSince: number | undefined;
    let drops = 0;
    return connect.pipe(
      retry({
        delay: (error: unknown) => {
          if (!isDrop(error)) return throwError(() => error);
          if (dropSince === undefined) {
            dropSince = Date.now();
            drops = 0;
          }
          drops += 1;
          if (drops > maxReconnects || Date.now() - dropSince > reconnectForMs)
            return throwError(() => error);
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
          return timer(backoff(retryMs, drops));
        },
      }),
      // The caller's abort is a stop, not a drop to reconnect after.
      cancelOnAbort(requestInit.signal ?? undefined),
    );
  });
}

/**
 * The wait before the `attempt`-th reconnection in a row: the server's `retry:` doubling each time
 * (at most 30 s), plus up to half again of jitter so clients cut together do not return together.
 */
function backoff(retryMs: number, attempt: number): number {
  const base = Math.min(30_000, retryMs * 2 ** (attempt - 1));
  return base + Math.random() * (base / 2);
}

/** The secrets `request` carries; none when its headers are not valid (it was refused unsent). */
function secretsOf(request: SSERequest): string[] {
  try {
    return sseRequestSecrets(String(request.url), new Headers(request.init.headers));
  } catch {
    return [];
  }
}

/** The run id of an event id (`<runId>:<n>`), if there is one. */
function runIdOf(eventIdValue: string | undefined): string | undefined {
  return eventIdValue === undefined ? undefined : parseEventId(eventIdValue)?.runId;
}

/** Errors with a `NetworkError` (a drop, to resume) after `ms` without a byte; 0: never. */
function silenceIsADrop(ms: number): MonoTypeOperatorFunction<Uint8Array> {
  if (ms <= 0) return (source) => source;
  return timeout({
    each: ms,
    with: () =>
      throwError(() => new NetworkError(`The SSE connection was silent for ${ms} ms`, { provider: 'sse' })),
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

/** The error an `event: error` frame names: the run errors of rxagent as their own classes. */
function failureOf(data: string): RxAgentError {
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
  const name = field('name') ?? 'Error';
  const runId = field('runId');
  const lastEventId = field('lastEventId');
  if (runId !== undefined) {
    if (name === 'RunNotFoundError') return new RunNotFoundError(runId);
    if (name === 'ReplayExpiredError' && lastEventId !== undefined)
      return new ReplayExpiredError(runId, lastEventId);
    if (name === 'RunLostError')
      return new RunLostError(runId, field('reason') === 'expired' ? 'expired' : 'writer_gone');
  }
  return new RunFailedError(field('message') ?? 'The run failed', name, field('code') ?? 'unknown');
}
