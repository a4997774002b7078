import type { Observable } from 'rxjs';
import type { SequencedEvent } from './sequenced-event.ts';

/**
 * Events a consumer may stop reading and read again after the last one it took: what
 * `RunRegistry.attach` returns. `writeSSE` uses it for backpressure: it stops reading while the
 * socket is full and reads on after the last event it wrote once the socket drained.
 */
export interface ResumableEvents extends Observable<SequencedEvent> {
  /** The same events after the one with id `lastEventId`, then the live ones. */
  resumeAfter(lastEventId: string): Observable<SequencedEvent>;
  /**
   * While subscribed, counts as a watcher of the run without reading its events (it never emits):
   * a consumer that stopped reading because its client is slow holds it meanwhile, so the run is
   * not taken for abandoned (a registry cancels a run nobody watches for `graceMs`).
   */
  readonly watching?: Observable<never>;
}

/**
 * Makes {@link ResumableEvents} from a read that starts after an event id (`undefined`: where the
 * first read starts), and what keeps the run watched while nothing is read (`watching`).
 * @example resumableEvents((lastEventId) => runs.attach(id, { lastEventId: lastEventId ?? fromHeader }))
 */
export function resumableEvents(
  read: (lastEventId: string | undefined) => Observable<SequencedEvent>,
  watching?: Observable<never>,
): ResumableEvents {
  return Object.assign(read(undefined), {
    resumeAfter: (lastEventId: string) => read(lastEventId),
    ...(watching ? { watching } : {}),
  });
}

/** Whether `events` can be read again after an event id. */
export function isResumable(events: Observable<unknown>): events is ResumableEvents {
  return typeof (events as Partial<ResumableEvents>).resumeAfter === 'function';
}
