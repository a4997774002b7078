import {
  asyncScheduler,
  catchError,
  concat,
  connect,
  endWith,
  ignoreElements,
  interval,
  map,
  merge,
  type Observable,
  type OperatorFunction,
  of,
  type SchedulerLike,
  startWith,
  switchMap,
  takeUntil,
} from 'rxjs';
import { END_FRAME, errorFrame, HEARTBEAT_FRAME, itemFrame } from './sse-frame.ts';

/** Options of {@link toSSEFrames} (and of `toSSEResponse` / `writeSSE`). */
export interface SSEStreamOptions {
  /** A comment frame after this much silence, so proxies keep the connection; 0 for none. @default 15_000 */
  heartbeatMs?: number;
  /** Sent first as `retry:`: how long a client waits before reconnecting. */
  retryMs?: number;
  /**
   * Close with `event: end` after completion and `event: error` after a failure, so a client
   * knows the stream ended on purpose (and an `EventSource` can `close()` instead of reconnecting).
   * @default true
   */
  endFrames?: boolean;
  /** Times the heartbeats. @default asyncScheduler */
  scheduler?: SchedulerLike;
}

/**
 * Turns events into server-sent-event frames: a `SequencedEvent` as `id:` and its event's JSON,
 * anything else as its JSON, never an `event:` name; comment heartbeats while the source is idle;
 * `event: end` / `event: error` at the end (unless `endFrames: false`, when a failure errors).
 * @param options heartbeat, `retry:` and end-frame settings
 * @example events$.pipe(toSSEFrames({ heartbeatMs: 10_000 })).subscribe((frame) => res.write(frame))
 */
export function toSSEFrames(options: SSEStreamOptions = {}): OperatorFunction<unknown, string> {
  const { heartbeatMs = 15_000, retryMs, endFrames = true, scheduler = asyncScheduler } = options;
  const close = (frames: Observable<string>): Observable<string> =>
    endFrames
      ? frames.pipe(
          endWith(END_FRAME),
          catchError((error: unknown) => of(errorFrame(error))),
        )
      : frames;
  return (source) => {
    const frames = close(source.pipe(map(itemFrame)));
    const withBeats =
      heartbeatMs > 0
        ? frames.pipe(
            connect((shared) =>
              merge(
                shared,
                shared.pipe(
                  startWith(''),
                  switchMap(() => interval(heartbeatMs, scheduler)),
                  map(() => HEARTBEAT_FRAME),
                  takeUntil(concat(shared.pipe(ignoreElements()), of(0))),
                ),
              ),
            ),
          )
        : frames;
    return retryMs === undefined ? withBeats : concat(of(`retry: ${retryMs}\n\n`), withBeats);
  };
}
