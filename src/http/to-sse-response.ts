import type { Observable, Subscription } from 'rxjs';
import { BodyPacer } from './body-pacer.ts';
import { isResumable } from './resumable-events.ts';
import { sseBufferGuard } from './sse-buffer-guard.ts';
import { SSE_HEADERS } from './sse-headers.ts';
import { type SSEStreamOptions, toSSEFrames } from './to-sse-frames.ts';

/** Options of {@link toSSEResponse}: a `ResponseInit` plus the stream settings. */
export interface SSEResponseInit extends ResponseInit, SSEStreamOptions {
  /** Bytes the response may hold unread before the stream ends with `SlowConsumerError`. @default 1_048_576 */
  maxBufferedBytes?: number;
  /** Bytes a replay (the first bytes sent) may hold unread, for events that cannot be paced. @default 8_388_608 (8 MiB) */
  maxReplayBytes?: number;
  /**
   * For `ResumableEvents` (what `RunRegistry.attach` returns): above this many unread bytes the
   * events stop being read (from the store too) until the body is read again. @default 262_144 (256 KiB)
   */
  pauseBytes?: number;
  /**
   * How long paced events wait for the body to be read before the stream ends with
   * `SlowConsumerError`; a `pacer` made with a `stallMs` of its own keeps that. @default 30_000
   */
  stallMs?: number;
  /** Paces the events inside `events$` by this body's reads (see `BodyPacer`); the body then holds up to `pauseBytes` unread. */
  pacer?: BodyPacer;
}

/**
 * A Web `Response` streaming `events$` as server-sent events (`text/event-stream`,
 * `cache-control: no-cache`, `x-accel-buffering: no`), for fetch-style servers (Hono, Next.js
 * route handlers, Bun, Deno). Subscribes at once (the run starts streaming into the body); a client that goes away
 * cancels the body, which unsubscribes. Events a registry's `attach` returns (`ResumableEvents`)
 * are paced: while `pauseBytes` wait unread in the body they are not read (nor is the store), and
 * reading goes on after the last event enqueued when the body is read again (with a server that
 * reads the body as the socket drains, as Deno, Bun and `Readable.fromWeb(body).pipe(res)` do;
 * after `stallMs` without a read the stream ends with a `SlowConsumerError`).
 * Otherwise a client that reads too slowly ends the stream with a `SlowConsumerError` instead of
 * making the server buffer without bound (the first `maxReplayBytes` sent, a resumed run's replay,
 * may wait unread).
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
    pauseBytes = 262_144,
    stallMs = 30_000,
    pacer,
    ...responseInit
  } = init;
  // Resumable events are paced here; transformed ones by the caller's pacer, bound to this body.
  const pacing = pacer ?? (isResumable(events$) ? new BodyPacer() : undefined);
  const pace = isResumable(events$) || pacer?.pacing === true;
  const encoder = new TextEncoder();
  let subscription: Subscription | undefined;
  let ended = false;
  // Paced events bound what waits themselves (pauseBytes, an event, a heartbeat or the end frame;
  // stallMs): judging those frames by maxBufferedBytes cut off a client behind one large event.
  const tooSlow = pace ? () => undefined : sseBufferGuard(maxBufferedBytes, maxReplayBytes);
  const highWaterMark = pace ? pauseBytes : maxBufferedBytes;
  const end = (finish: () => void) => {
    if (ended) return;
    ended = true;
    subscription?.unsubscribe();
    finish();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        pacing?.bind({
          controller,
          highWaterMark,
          stallMs,
          stalled: (error) => end(() => controller.error(error)),
        });
        const source = pacing ? pacing.pace(events$) : events$;
        subscription = source
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
              const bytes = encoder.encode(frame);
              controller.enqueue(bytes);
              const queued = highWaterMark - (controller.desiredSize ?? 0);
              const slow = tooSlow(bytes.length, queued);
              if (slow) end(() => controller.error(slow));
            },
            error: (error: unknown) => end(() => controller.error(error)),
            complete: () => end(() => controller.close()),
          });
        if (ended) subscription.unsubscribe();
      },
      pull() {
        pacing?.pulled();
      },
      cancel() {
        end(() => undefined);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark }),
  );
  const headers = new Headers(responseInit.headers);
  for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
  return new Response(body, { ...responseInit, headers });
}
