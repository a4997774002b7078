import type { Observable, Subscription } from 'rxjs';
import { sseBufferGuard } from './sse-buffer-guard.ts';
import { SSE_HEADERS } from './sse-headers.ts';
import { type SSEStreamOptions, toSSEFrames } from './to-sse-frames.ts';

/** Options of {@link toSSEResponse}: a `ResponseInit` plus the stream settings. */
export interface SSEResponseInit extends ResponseInit, SSEStreamOptions {
  /** Bytes the response may hold unread before the stream ends with `SlowConsumerError`. @default 1_048_576 */
  maxBufferedBytes?: number;
  /** Bytes a replay (the first bytes sent) may hold unread. @default 8_388_608 (8 MiB) */
  maxReplayBytes?: number;
}

/**
 * A Web `Response` streaming `events$` as server-sent events (`text/event-stream`,
 * `cache-control: no-cache`, `x-accel-buffering: no`), for fetch-style servers (Hono, Next.js
 * route handlers, Bun, Deno). Subscribes at once (the run starts streaming into the body); a client that goes away
 * cancels the body, which unsubscribes; a client that reads too slowly ends the stream with a
 * `SlowConsumerError` instead of making the server buffer without bound (the first
 * `maxReplayBytes` sent, a resumed run's replay, may wait unread).
 * @param events$ the events; a `SequencedEvent` is written with its `id:`
 * @param init status, headers, and the {@link SSEStreamOptions}
 * @example
 * app.get('/runs/:id', (c) => toSSEResponse(runs.attach(c.req.param('id'), { lastEventId })))
 */
export function toSSEResponse(events$: Observable<unknown>, init: SSEResponseInit = {}): Response {
  const {
    heartbeatMs,
    retryMs,
    endFrames,
    scheduler,
    maxBufferedBytes = 1_048_576,
    maxReplayBytes = 8_388_608,
    ...responseInit
  } = init;
  const encoder = new TextEncoder();
  let subscription: Subscription | undefined;
  let ended = false;
  const tooSlow = sseBufferGuard(maxBufferedBytes, maxReplayBytes);
  const end = (finish: () => void) => {
    if (ended) return;
    ended = true;
    subscription?.unsubscribe();
    finish();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        subscription = events$
          .pipe(
            toSSEFrames({
              ...(heartbeatMs === undefined ? {} : { heartbeatMs }),
              ...(retryMs === undefined ? {} : { retryMs }),
              ...(endFrames === undefined ? {} : { endFrames }),
              ...(scheduler === undefined ? {} : { scheduler }),
            }),
          )
          .subscribe({
            next(frame) {
              if (ended) return;
              controller.enqueue(encoder.encode(frame));
              const slow = tooSlow(frame.length, maxBufferedBytes - (controller.desiredSize ?? 0));
              if (slow) end(() => controller.error(slow));
            },
            error: (error: unknown) => end(() => controller.error(error)),
            complete: () => end(() => controller.close()),
          });
        if (ended) subscription.unsubscribe();
      },
      cancel() {
        end(() => undefined);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: maxBufferedBytes }),
  );
  const headers = new Headers(responseInit.headers);
  for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
  return new Response(body, { ...responseInit, headers });
}
