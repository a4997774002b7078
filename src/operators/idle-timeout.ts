import { asyncScheduler, type MonoTypeOperatorFunction, Observable, type SchedulerLike } from 'rxjs';
import { TimeoutError } from '../core/index.ts';

/** Options of {@link idleTimeout}. */
export interface IdleTimeoutOptions {
  /** Longest silence between two values (and before the first, unless `firstMs` is set). */
  ms: number;
  /** Longest wait for the first value, from subscription (e.g. longer, for a slow first token). */
  firstMs?: number;
  /** Where time comes from. @default asyncScheduler */
  scheduler?: SchedulerLike;
}

/**
 * Errors with `TimeoutError` when no value arrives within `ms` of subscription (or `firstMs`, when
 * given) or of the previous value; unsubscribes the source.
 *
 * A value only notes the time: one timer runs to the earliest possible deadline and, if a value
 * came meanwhile, re-arms for the new one. So a stream of many values costs a clock read per value
 * and a timer per `ms` of silence, not a timer per value.
 * @param options the silence allowed in ms, or `{ ms, firstMs, scheduler }`.
 * @example
 * model.stream(request).pipe(idleTimeout({ ms: 30_000, firstMs: 120_000 }))
 */
export function idleTimeout<T>(options: number | IdleTimeoutOptions): MonoTypeOperatorFunction<T> {
  const {
    ms,
    firstMs = ms,
    scheduler = asyncScheduler,
  } = typeof options === 'number' ? { ms: options } : options;
  return (source) =>
    new Observable<T>((subscriber) => {
      let seen = false;
      let last = scheduler.now();
      // When the armed timer fires; a first value may pull the deadline earlier (ms < firstMs).
      let armedFor = last + firstMs;
      const arm = (delay: number) => {
        armedFor = scheduler.now() + delay;
        const action = scheduler.schedule(function check() {
          const allowed = seen ? ms : firstMs;
          const left = last + allowed - scheduler.now();
          if (left <= 0) subscriber.error(new TimeoutError(allowed));
          else {
            armedFor = scheduler.now() + left;
            this.schedule(undefined, left);
          }
        }, delay);
        subscriber.add(action);
        return action;
      };
      let timer = arm(firstMs);
      subscriber.add(
        source.subscribe({
          next(value) {
            last = scheduler.now();
            if (!seen) {
              seen = true;
              if (last + ms < armedFor) {
                timer.unsubscribe();
                timer = arm(ms);
              }
            }
            subscriber.next(value);
          },
          error: (error) => subscriber.error(error),
          complete: () => subscriber.complete(),
        }),
      );
    });
}
