import { defer, EMPTY, type Observable, repeat, takeWhile, tap, using } from 'rxjs';
import type { ResumableEvents } from './resumable-events.ts';
import type { SequencedEvent } from './sequenced-event.ts';

/**
 * Reads `events` only while the consumer keeps up: once `full()` (checked as each event arrives;
 * the event that found it full is not passed on but read again) the read is unsubscribed, which
 * stops a store's read (a Redis store's XRANGE pages and XREAD), and after `drained()` emits it
 * starts again after the last event passed on. So a consumer that does not read holds about one threshold of events, not
 * the whole replay. Unsubscribing and resubscribing is how an Observable is paused: it has no
 * demand signal of its own. From the first read to the end, `events.watching` is subscribed too,
 * so the run counts as watched while the read is paused.
 * @example paced(runs.attach(id), () => res.writableLength > 262_144, () => fromEvent(res, 'drain').pipe(take(1)))
 */
export function paced(
  events: ResumableEvents,
  full: () => boolean,
  drained: () => Observable<unknown>,
): Observable<SequencedEvent> {
  return defer(() => {
    let last: string | undefined;
    // Whether the last read stopped because the consumer was full (rather than with the run).
    let paused = false;
    const reads = defer(() => {
      paused = false;
      return last === undefined ? events : events.resumeAfter(last);
    }).pipe(
      // Not inclusive: writing the event that found the consumer full would put a second large
      // event on top of one (a 1 MB tool result), past maxBufferedBytes: a SlowConsumerError.
      takeWhile(() => !(paused = full())),
      tap((event) => (last = event.id)),
      // Stopped because the consumer is full: read on once it drained. Ended with the run: done,
      // even if the consumer is full now (its last bytes need no drain before the end).
      repeat({ delay: () => (paused ? drained() : EMPTY) }),
    );
    return using(
      () => (events.watching ?? EMPTY).subscribe(),
      () => reads,
    );
  });
}
