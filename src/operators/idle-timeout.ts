import {
  asyncScheduler,
  type MonoTypeOperatorFunction,
  Observable,
  type SchedulerLike,
  Subscription,
  type Unsubscribable,
} from 'rxjs';
import { TimeoutError } from '../core/index.ts';

/** Options of {@link idleTimeout}. */
export interface IdleTimeoutOptions {
  /** Longest silence between two values (and before the first, unless `firstMs` is set). */
  ms: number;
  /** Longest wait for the first value, from subscription (e.g. longer, for a slow first token). */
  firstMs?: number;
  /**
   * How late the timeout may fire after `ms` of silence between values, in exchange for values
   * that cost no clock read: a timer checks every `p = ⌊maxLateMs / 2⌋` ms (whole milliseconds,
   * as platform timers count) whether a value came, and errors after `⌈ms / p⌉` checks in a row
   * saw none. So the error comes after a silence of at least `ms` and less than `ms + maxLateMs`
   * (as precise as the platform's timers). Below 2, exact: every value reads the clock. The wait
   * for the first value is always exact.
   * @default 0
   */
  maxLateMs?: number;
  /** Where time comes from. @default asyncScheduler */
  scheduler?: SchedulerLike;
}

/**
 * Errors with `TimeoutError` when no value arrives within `ms` of subscription (or `firstMs`, when
 * given) or of the previous value; unsubscribes the source.
 *
 * Exact (the default): a value only notes the time; one timer runs to the earliest possible
 * deadline and, if a value came meanwhile, re-arms for the new one. So a stream of many values costs
 * a clock read per value and a timer per `ms` of silence, not a timer per value. With `maxLateMs`,
 * a value costs one store: a periodic check counts the periods without one (see the option).
 * @param options the silence allowed in ms, or `{ ms, firstMs, maxLateMs, scheduler }`.
 * @example
 * model.stream(request).pipe(idleTimeout({ ms: 30_000, firstMs: 120_000 }))
 */
export function idleTimeout<T>(options: number | IdleTimeoutOptions): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const watch = idleWatch(options, (error) => subscriber.error(error));
      subscriber.add(watch);
      subscriber.add(
        source.subscribe({
          next(value) {
            watch.seen();
            subscriber.next(value);
          },
          error: (error) => subscriber.error(error),
          complete: () => subscriber.complete(),
        }),
      );
    });
}

/** A running idle check: told of every value by `seen()`; unsubscribing stops its timer. */
export interface IdleWatch extends Unsubscribable {
  /** A value arrived. */
  seen(): void;
}

/**
 * The check behind {@link idleTimeout}, started now, for a pipeline that notes its values itself
 * rather than through an Observable hop (the provider pipeline: one per network chunk, on every
 * token). Calls `onTimeout` once, with the `TimeoutError`, after a silence as `idleTimeout` defines
 * it; `seen()` after that does nothing.
 * @example const watch = idleWatch({ ms: 30_000, maxLateMs: 3_000 }, (e) => subscriber.error(e));
 */
export function idleWatch(
  options: number | IdleTimeoutOptions,
  onTimeout: (error: TimeoutError) => void,
): IdleWatch {
  const {
    ms,
    firstMs = ms,
    maxLateMs = 0,
    scheduler = asyncScheduler,
  } = typeof options === 'number' ? { ms: options } : options;
  return maxLateMs >= 2 && Number.isFinite(ms) && ms > 0
    ? periodic(ms, firstMs, maxLateMs, scheduler, onTimeout)
    : exact(ms, firstMs, scheduler, onTimeout);
}

/**
 * The longest delay a platform timer holds: Node and browsers run a longer one (a `timeoutMs` of
 * 2³¹ ms, 25 days, or `firstMs: Infinity`) after 1 ms. A longer wait is cut to this and re-armed for
 * what is left when it fires.
 */
const MAX_TIMER_DELAY = 2 ** 31 - 1;

function timerDelay(ms: number): number {
  return Math.min(ms, MAX_TIMER_DELAY);
}

/** Every value reads the clock; the timer re-arms to the exact deadline. */
function exact(
  ms: number,
  firstMs: number,
  scheduler: SchedulerLike,
  onTimeout: (error: TimeoutError) => void,
): IdleWatch {
  const timers = new Subscription();
  let seen = false;
  let last = scheduler.now();
  // When the armed timer fires; a first value may pull the deadline earlier (ms < firstMs).
  let armedFor = last + firstMs;
  const arm = (delay: number) => {
    armedFor = scheduler.now() + delay;
    const action = scheduler.schedule(function check() {
      const allowed = seen ? ms : firstMs;
      const left = last + allowed - scheduler.now();
      if (left <= 0) {
        timers.unsubscribe();
        onTimeout(new TimeoutError(allowed));
      } else {
        armedFor = scheduler.now() + left;
        this.schedule(undefined, timerDelay(left));
      }
    }, timerDelay(delay));
    timers.add(action);
    return action;
  };
  let timer = arm(firstMs);
  return {
    seen() {
      if (timers.closed) return;
      last = scheduler.now();
      if (seen) return;
      seen = true;
      if (last + ms < armedFor) {
        timers.remove(timer);
        timer.unsubscribe();
        timer = arm(ms);
      }
    },
    unsubscribe: () => timers.unsubscribe(),
  };
}

/**
 * Values set a flag; a timer every `period` clears it, and errors after `checks` periods in a row
 * found it clear. Before the first value one timer waits `firstMs` exactly; the first value
 * replaces it with the periodic check, started then (one timer per stream, not per value), so each
 * silence is counted from a check at most one period after its last value.
 */
function periodic(
  ms: number,
  firstMs: number,
  maxLateMs: number,
  scheduler: SchedulerLike,
  onTimeout: (error: TimeoutError) => void,
): IdleWatch {
  // A silence from a value to the error spans `checks` whole periods after the check that saw the
  // value, and less than one before it: [checks·period, (checks + 1)·period) ⊂ [ms, ms + maxLateMs).
  const period = timerDelay(Math.floor(maxLateMs / 2));
  const checks = Math.ceil(ms / period);
  const timers = new Subscription();
  const fire = (error: TimeoutError) => {
    timers.unsubscribe();
    onTimeout(error);
  };
  let seen = false;
  let active = false;
  let quiet = 0;
  const tick = function (this: { schedule(state?: undefined, delay?: number): unknown }) {
    if (active) {
      active = false;
      quiet = 0;
    } else if (++quiet >= checks) {
      fire(new TimeoutError(ms));
      return;
    }
    this.schedule(undefined, period);
  };
  // Exact; a wait longer than a platform timer holds is re-armed for what is left (one clock read).
  const start = firstMs > MAX_TIMER_DELAY ? scheduler.now() : 0;
  const first = scheduler.schedule(function first() {
    const left = firstMs > MAX_TIMER_DELAY ? start + firstMs - scheduler.now() : 0;
    if (left <= 0) fire(new TimeoutError(firstMs));
    else this.schedule(undefined, timerDelay(left));
  }, timerDelay(firstMs));
  timers.add(first);
  return {
    seen() {
      if (seen) {
        active = true;
        return;
      }
      if (timers.closed) return;
      seen = true;
      timers.remove(first);
      first.unsubscribe();
      timers.add(scheduler.schedule(tick, period));
    },
    unsubscribe: () => timers.unsubscribe(),
  };
}
