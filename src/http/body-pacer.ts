import { EMPTY, filter, type Observable, Subject, take, timeout } from 'rxjs';
import { SlowConsumerError } from '../core/index.ts';
import { paced } from './paced-events.ts';
import { isResumable } from './resumable-events.ts';
import type { SequencedEvent } from './sequenced-event.ts';

/** The body a {@link BodyPacer} paces by: `toSSEResponse` binds it. */
export interface PacedBody {
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  /** The bytes the body holds unread before the events pause (`pauseBytes`). */
  readonly highWaterMark: number;
  /** How long a full body may go unread, unless the pacer was made with its own. */
  readonly stallMs: number;
  /** Ends the body with `error`: the client stopped reading. */
  stalled(error: SlowConsumerError): void;
}

/**
 * Paces a registry's events by the demand of the `Response` body they end up in: read only while
 * the body has room, paused once it holds `pauseBytes` unread, read on once half of that was read;
 * a body left full for `stallMs` ends with `SlowConsumerError` and the events stop. `toSSEResponse`
 * paces resumable events with one of its own; pass one (`pacer`) when they are transformed on the
 * way (useChat's chunks, AG-UI events): the transforms keep their state across a pause because the
 * events are paused before them.
 * @example const pacer = new BodyPacer(); toSSEResponse(pacer.pace(runs.attach(id)).pipe(map(toChunk)), { pacer })
 */
export class BodyPacer {
  #body: PacedBody | undefined;
  readonly #pulled = new Subject<void>();
  readonly #stallMs: number | undefined;

  /** @param stallMs how long a full body may go unread @default the body's (`toSSEResponse`'s `stallMs`) */
  constructor(stallMs?: number) {
    this.#stallMs = stallMs;
  }

  /** `events` read only while the body has room (as is, when they cannot be resumed). */
  pace(events: Observable<SequencedEvent>): Observable<SequencedEvent>;
  pace<T>(events: Observable<T>): Observable<T>;
  pace(events: Observable<unknown>): Observable<unknown> {
    if (!isResumable(events)) return events;
    return paced(
      events,
      () => (this.#body?.controller.desiredSize ?? 1) <= 0,
      () => this.#roomAgain(),
    );
  }

  /** For `toSSEResponse`: the body whose demand paces. */
  bind(body: PacedBody): void {
    this.#body = body;
  }

  /** For `toSSEResponse`: the body was read and has room again. */
  pulled(): void {
    this.#pulled.next();
  }

  /** Emits once half the body was read; a body left full for `stallMs` is ended and nothing emits. */
  #roomAgain(): Observable<unknown> {
    const body = this.#body;
    // Only a bound body is ever full.
    if (body === undefined) return EMPTY;
    const { controller, highWaterMark } = body;
    return this.#pulled.pipe(
      // Half the body read, not a chunk: a resume per chunk would re-read the store (a Redis
      // connection and XRANGE) per chunk.
      filter(() => (controller.desiredSize ?? 0) >= highWaterMark / 2),
      take(1),
      timeout({
        first: this.#stallMs ?? body.stallMs,
        with: () => {
          body.stalled(new SlowConsumerError(highWaterMark - (controller.desiredSize ?? 0), highWaterMark));
          return EMPTY;
        },
      }),
    );
  }
}
