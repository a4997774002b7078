import {
  BehaviorSubject,
  EMPTY,
  finalize,
  type Observable,
  type SchedulerLike,
  Subscription,
  switchMap,
  take,
  timer,
} from 'rxjs';
import { RunApprovals } from './run-approvals.ts';
import type { RunStatus } from './runs.ts';

/** The state of a run the registry holds. */
export type HeldRunStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/**
 * One run a `RunRegistry` holds: its owner and state, how many watch it, its approvals, the
 * controller that aborts it, and the subscriptions (the source's, then the retention timer) that
 * end with it.
 */
export class HeldRun {
  status: HeldRunStatus = 'running';
  readonly approvals = new RunApprovals();
  readonly controller = new AbortController();
  /** The source subscription and the grace timer while running; the retention timer after. */
  subscription = new Subscription();
  readonly id: string;
  /** The id of the actor that started the run. */
  readonly owner: string | undefined;
  /** The state last told to the other servers (`status` and pending ids), to tell only changes. */
  published = '';
  readonly #watchers = new BehaviorSubject(0);

  constructor(id: string, owner: string | undefined) {
    this.id = id;
    this.owner = owner;
  }

  /** The run's status as `Runs.status` reports it. */
  get runStatus(): RunStatus {
    if (this.status !== 'running') return this.status;
    return this.approvals.pending().length > 0 ? 'awaiting-approval' : 'running';
  }

  /** Emits once, after nobody here has watched the run for `graceMs` in a row. */
  unwatchedFor(graceMs: number, scheduler: SchedulerLike): Observable<unknown> {
    return this.#watchers.pipe(
      switchMap((count) => (count === 0 ? timer(graceMs, scheduler) : EMPTY)),
      take(1),
    );
  }

  /** `events$`, counting as one watcher of the run while subscribed. */
  watched<T>(events$: Observable<T>): Observable<T> {
    this.#watchers.next(this.#watchers.value + 1);
    return events$.pipe(
      finalize(() => {
        if (!this.#watchers.closed) this.#watchers.next(this.#watchers.value - 1);
      }),
    );
  }

  /** Marks the run ended: its approvals are forgotten and nobody's watching counts any more. */
  end(status: Exclude<HeldRunStatus, 'running'>): void {
    this.status = status;
    this.subscription.unsubscribe();
    this.approvals.clear();
    this.#watchers.complete();
  }
}
