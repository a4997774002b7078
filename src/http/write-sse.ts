import type { ServerResponse } from 'node:http';
import { EMPTY, fromEvent, type Observable, Subscription, take, timeout, timer } from 'rxjs';
import { SlowConsumerError } from '../core/index.ts';
import { paced } from './paced-events.ts';
import { isResumable } from './resumable-events.ts';
import { sseBufferGuard } from './sse-buffer-guard.ts';
import { SSE_HEADERS } from './sse-headers.ts';
import { type SSEStreamOptions, toSSEFrames } from './to-sse-frames.ts';

/** Options of {@link writeSSE}. */
export interface WriteSSEOptions extends SSEStreamOptions {
  /** Bytes the socket may hold unsent before the stream ends with `SlowConsumerError`. @default 1_048_576 */
  maxBufferedBytes?: number;
  /** Bytes a replay (the first bytes sent) may hold unsent, for events that cannot be paced. @default 8_388_608 (8 MiB) */
  maxReplayBytes?: number;
  /**
   * For `ResumableEvents` (what `RunRegistry.attach` returns): above this many unsent bytes (and
   * the socket's high-water mark) the events stop being read (from the store too) until the socket
   * drains. @default 262_144 (256 KiB)
   */
  pauseBytes?: number;
  /**
   * How long paced events wait for a full socket to drain before the client is cut off with a
   * `SlowConsumerError` (it may resume with `Last-Event-ID`). @default 30_000
   */
  stallMs?: number;
  /** Extra response headers (the SSE ones always win). */
  headers?: Record<string, string>;
  /** Called once when the stream ends for a reason the client cannot be told: a slow client, a failed write. */
  onError?: (error: unknown) => void;
}

/**
 * Streams `events$` into a Node `ServerResponse` as server-sent events (Express, Fastify's raw
 * reply, `node:http`): one write per event, comment heartbeats while idle, `event: end` /
 * `event: error` at the end. A client that disconnects unsubscribes (a `RunRegistry` run goes on:
 * disconnect is not cancel). Events a registry's `attach` returns (`ResumableEvents`) are paced:
 * while more than `pauseBytes` wait unsent, they are not read (nor is the store), and reading goes
 * on after the last event written once the socket drained, so a client that does not read makes
 * the server hold about `pauseBytes` (and is cut off with a `SlowConsumerError` after `stallMs`). Other events are not paced: a client that reads so slowly
 * that more than `maxBufferedBytes` wait in the socket is cut off with a `SlowConsumerError`
 * (passed to `onError`) instead of buffering without bound (the first `maxReplayBytes` sent, a
 * resumed run's replay, may wait unsent).
 * @param events$ the events; a `SequencedEvent` is written with its `id:`
 * @param res the response; its headers are sent at once
 * @param options heartbeat, `retry:`, buffer limit, headers, `onError`
 * @returns the subscription; unsubscribing ends the response
 * @example
 * http.createServer((req, res) => writeSSE(runs.attach(id, { lastEventId: req.headers['last-event-id'] }), res))
 */
export function writeSSE(
  events$: Observable<unknown>,
  res: ServerResponse,
  options: WriteSSEOptions = {},
): Subscription {
  const {
    maxBufferedBytes = 1_048_576,
    maxReplayBytes = 8_388_608,
    pauseBytes = 262_144,
    stallMs = 30_000,
    headers = {},
    onError,
    ...streamOptions
  } = options;
  if (!res.headersSent) res.writeHead(200, { ...headers, ...SSE_HEADERS });
  res.flushHeaders();
  const subscription = new Subscription();
  const fail = (error: unknown) => {
    if (subscription.closed) return;
    res.destroy();
    subscription.unsubscribe();
    onError?.(error);
  };
  const onClose = () => subscription.unsubscribe();
  res.once('close', onClose);
  subscription.add(() => {
    res.off('close', onClose);
    if (!res.writableEnded && !res.destroyed) res.end();
  });
  if (res.destroyed) subscription.unsubscribe();
  const pace = isResumable(events$);
  const source = pace
    ? paced(
        events$,
        // Only while a write was refused: 'drain' comes only then (a pauseBytes below the
        // socket's high-water mark would otherwise wait stallMs for a drain that never comes).
        () => res.writableLength > pauseBytes && res.writableNeedDrain,
        () =>
          fromEvent(res, 'drain').pipe(
            take(1),
            timeout({
              first: stallMs,
              with: () => {
                fail(new SlowConsumerError(res.writableLength, pauseBytes));
                return EMPTY;
              },
            }),
          ),
      )
    : events$;
  // Paced events bound what waits themselves (pauseBytes, an event, a heartbeat or the end frame;
  // stallMs): judging those frames by maxBufferedBytes cut off a client behind one large event.
  const tooSlow = pace ? () => undefined : sseBufferGuard(maxBufferedBytes, maxReplayBytes);
  subscription.add(
    source.pipe(toSSEFrames(streamOptions)).subscribe({
      next(frame) {
        if (subscription.closed) return;
        res.write(frame, (error) => {
          if (error) fail(error);
        });
        const slow = tooSlow(frame.length, res.writableLength);
        if (slow) fail(slow);
      },
      error: (error: unknown) => {
        res.end();
        onError?.(error);
      },
      complete: () => {
        res.end();
        // Paced, the last bytes may still wait for a client that stopped reading: at most stallMs.
        if (pace && !res.writableFinished)
          subscription.add(
            timer(stallMs).subscribe(() => fail(new SlowConsumerError(res.writableLength, pauseBytes))),
          );
      },
    }),
  );
  return subscription;
}
