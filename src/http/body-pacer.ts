import { filter, type Observable, Subject, take, throwError, timeout } from 'rxjs';
import { SlowConsumerError } from '../core/index.ts';
import { paced } from './paced-events.ts';
import { isResumable } from './resumable-events.ts';
import type { SequencedEvent } from './sequenced-event.ts';

/**
 * Paces a registry's events by the demand of the `Response` body they end up in, when they are
 * transformed on the way (useChat's chunks, AG-UI events): the transforms keep their state across
 * a pause because the events are paused before them. Pass the same pacer to `toSSEResponse`
 * (`pacer`), which binds it to its body.
 * @example const pacer = new BodyPacer(); toSSEResponse(pacer.pace(runs.attach(id)).pipe(map(toChunk)), { pacer })
 */
export class BodyPacer {
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #highWaterMark = 0;
  readonly #pulled = new Subject<void>();
  readonly #stallMs: number;

  /** @param stallMs how long a full body may go unread before the events end with `SlowConsumerError` */
  constructor(stallMs = 30_000) {
    this.#stallMs = stallMs;
  }

  /** `events` read only while the body has room (as is, when they cannot be resumed). */
  pace(events: Observable<SequencedEvent>): Observable<SequencedEvent> {
    if (!isResumable(events)) return events;
    return paced(
      events,
      () => (this.#controller?.desiredSize ?? 1) <= 0,
      () =>
        this.#pulled.pipe(
          // Half the body read, not a chunk: a resume per chunk would re-read the store per chunk.
          filter(() => (this.#controller?.desiredSize ?? 0) >= this.#highWaterMark / 2),
          take(1),
          timeout({
            first: this.#stallMs,
            with: () => throwError(() => new SlowConsumerError(-(this.#controller?.desiredSize ?? 0), 0)),
          }),
        ),
    );
  }

  /** For `toSSEResponse`: the body whose demand paces. */
  bind(controller: ReadableStreamDefaultController<Uint8Array>, highWaterMark: number): void {
    this.#controller = controller;
    this.#highWaterMark = highWaterMark;
  }

  /** For `toSSEResponse`: the body was read and has room again. */
  pulled(): void {
    this.#pulled.next();
  }
}
