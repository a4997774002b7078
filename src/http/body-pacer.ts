import { EMPTY, filter, interval, map, merge, type Observable, Subject, take } from 'rxjs';
import { RxAgentError, SlowConsumerError } from '../core/index.ts';
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
 * a full body not read at all for `stallMs` (checked every `stallMs`, so cut off within twice that)
 * ends with `SlowConsumerError` and the events stop. `toSSEResponse`
 * paces resumable events with one of its own; pass one (`pacer`) when they are transformed on the
 * way (useChat's chunks, AG-UI events): the transforms keep their state across a pause because the
 * events are paused before them.
 * @example const pacer = new BodyPacer(); toSSEResponse(pacer.pace(runs.attach(id)).pipe(map(toChunk)), { pacer })
 */
export class BodyPacer {
  #body: PacedBody | undefined;
  #pacing = false;
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
    this.#pacing = true;
    return paced(
      events,
      () => (this.#body?.controller.desiredSize ?? 1) <= 0,
      () => this.#roomAgain(),
    );
  }

  /**
   * Whether it paces anything: `pace` was given events it can resume. Events it cannot resume
   * (a registry's `attach` piped through an operator) pass as they are, and the body then bounds
   * what waits unread by `maxBufferedBytes` as for any other stream.
   */
  get pacing(): boolean {
    return this.#pacing;
  }

  /** For `toSSEResponse`: the body whose demand paces; one body per pacer. */
  bind(body: PacedBody): void {
    if (this.#body !== undefined)
      throw new RxAgentError('A BodyPacer paces one response: make one per response', 'invalid_options');
    this.#body = body;
  }

  /** For `toSSEResponse`: the body was read and has room again. */
  pulled(): void {
    this.#pulled.next();
  }

  /**
   * Emits once half the body was read; a body not read at all for `stallMs` is ended and nothing
   * emits. A read is the body's queue shrinking, checked every `stallMs`, not a pull: a body holds
   * more than `pauseBytes` after a large event, and is pulled only once read below that, so a
   * client reading such a body steadily saw no pull for longer than `stallMs`.
   */
  #roomAgain(): Observable<unknown> {
    const body = this.#body;
    // Only a bound body is ever full.
    if (body === undefined) return EMPTY;
    const { controller, highWaterMark } = body;
    const room = () => controller.desiredSize ?? 0;
    let before = room();
    const unread = () => {
      const now = room();
      const read = now > before;
      before = now;
      return !read;
    };
    return merge(
      // Half the body read, not a chunk: a resume per chunk would re-read the store (a Redis
      // connection and XRANGE) per chunk.
      this.#pulled.pipe(
        filter(() => room() >= highWaterMark / 2),
        map(() => true),
      ),
      interval(this.#stallMs ?? body.stallMs).pipe(
        filter(unread),
        map(() => false),
      ),
    ).pipe(
      take(1),
      filter((drained) => {
        if (!drained) body.stalled(new SlowConsumerError(highWaterMark - room(), highWaterMark));
        return drained;
      }),
    );
  }
}
