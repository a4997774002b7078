import type { ServerResponse } from 'node:http';
import { type Observable, Subscription } from 'rxjs';
import { SlowConsumerError } from '../core/index.ts';
import { SSE_HEADERS } from './sse-headers.ts';
import { type SSEStreamOptions, toSSEFrames } from './to-sse-frames.ts';

/** Options of {@link writeSSE}. */
export interface WriteSSEOptions extends SSEStreamOptions {
  /** Bytes the socket may hold unsent before the stream ends with `SlowConsumerError`. @default 1_048_576 */
  maxBufferedBytes?: number;
  /** Extra response headers (the SSE ones always win). */
  headers?: Record<string, string>;
  /** Called once when the stream ends for a reason the client cannot be told: a slow client, a failed write. */
  onError?: (error: unknown) => void;
}

/**
 * Streams `events$` into a Node `ServerResponse` as server-sent events (Express, Fastify's raw
 * reply, `node:http`): one write per event, comment heartbeats while idle, `event: end` /
 * `event: error` at the end. A client that disconnects unsubscribes (a `RunRegistry` run goes on:
 * disconnect is not cancel); one that reads so slowly that more than `maxBufferedBytes` wait in the
 * socket is cut off with a `SlowConsumerError` (passed to `onError`) instead of buffering without bound
 * (what is written at once when it subscribes, a resumed run's replay, may wait until it drains).
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
  const { maxBufferedBytes = 1_048_576, headers = {}, onError, ...streamOptions } = options;
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
  // What a resumed client is sent at once (a run's replay, bounded by its replay buffer) is allowed
  // to wait unsent until it drains below the limit; anything queued beyond that makes a slow client.
  let allowance = Infinity;
  let subscribing = true;
  subscription.add(
    events$.pipe(toSSEFrames(streamOptions)).subscribe({
      next(frame) {
        if (subscription.closed) return;
        res.write(frame, (error) => {
          if (error) fail(error);
        });
        if (subscribing) return;
        if (res.writableLength <= maxBufferedBytes) allowance = maxBufferedBytes;
        if (res.writableLength > allowance) fail(new SlowConsumerError(res.writableLength, allowance));
      },
      error: (error: unknown) => {
        res.end();
        onError?.(error);
      },
      complete: () => res.end(),
    }),
  );
  subscribing = false;
  allowance = Math.max(maxBufferedBytes, res.writableLength);
  return subscription;
}
