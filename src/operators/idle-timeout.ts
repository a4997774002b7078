import {
  asyncScheduler,
  type MonoTypeOperatorFunction,
  Observable,
  type SchedulerAction,
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
    ? new PeriodicWatch(ms, firstMs, maxLateMs, scheduler, onTimeout)
    : new ExactWatch(ms, firstMs, scheduler, onTimeout);
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

/**
 * What both watches share: their timers, the waits they were given, and how they time out.
 *
 * The watches are classes, not objects of closures made per stream: `seen` runs on every network
 * chunk, called from the provider pipeline's chunk observer, and a new closure per stream there is
 * a new call target each time, which threw away the observer's optimised code at the second stream
 * of a process and had it compiled again during the third (`--trace-deopt`: "wrong call target").
 */
abstract class Watch implements IdleWatch {
  protected readonly timers = new Subscription();
  protected seenOne = false;
  protected readonly ms: number;
  protected readonly firstMs: number;
  protected readonly scheduler: SchedulerLike;
  private readonly onTimeout: (error: TimeoutError) => void;

  constructor(
    ms: number,
    firstMs: number,
    scheduler: SchedulerLike,
    onTimeout: (error: TimeoutError) => void,
  ) {
    this.ms = ms;
    this.firstMs = firstMs;
    this.scheduler = scheduler;
    this.onTimeout = onTimeout;
  }

  abstract seen(): void;

  /** A one-shot timer ({@link rewait}) fired: errors when the wait is over, else the ms left. */
  abstract waited(): number | undefined;

  unsubscribe(): void {
    this.timers.unsubscribe();
  }

  protected fire(error: TimeoutError): void {
    this.timers.unsubscribe();
    this.onTimeout(error);
  }
}

/** A watch's one-shot timer, re-armed for what is left until the watch says the wait is over. */
function rewait(this: SchedulerAction<Watch>, watch?: Watch): void {
  const left = watch?.waited();
  if (left !== undefined) this.schedule(watch, timerDelay(left));
}

/** Every value reads the clock; the timer re-arms to the exact deadline. */
class ExactWatch extends Watch {
  private last: number;
  // When the armed timer fires; a first value may pull the deadline earlier (ms < firstMs).
  private armedFor = 0;
  private timer: Subscription;

  constructor(
    ms: number,
    firstMs: number,
    scheduler: SchedulerLike,
    onTimeout: (error: TimeoutError) => void,
  ) {
    super(ms, firstMs, scheduler, onTimeout);
    this.last = scheduler.now();
    this.timer = this.arm(firstMs);
  }

  seen(): void {
    if (this.timers.closed) return;
    this.last = this.scheduler.now();
    if (this.seenOne) return;
    this.seenOne = true;
    if (this.last + this.ms < this.armedFor) {
      this.timers.remove(this.timer);
      this.timer.unsubscribe();
      this.timer = this.arm(this.ms);
    }
  }

  waited(): number | undefined {
    const allowed = this.seenOne ? this.ms : this.firstMs;
    const left = this.last + allowed - this.scheduler.now();
    if (left <= 0) {
      this.fire(new TimeoutError(allowed));
      return undefined;
    }
    this.armedFor = this.scheduler.now() + left;
    return left;
  }

  private arm(delay: number): Subscription {
    this.armedFor = this.scheduler.now() + delay;
    const action = this.scheduler.schedule(rewait, timerDelay(delay), this);
    this.timers.add(action);
    return action;
  }
}

/**
 * Values set a flag; a timer every `period` clears it, and errors after `checks` periods in a row
 * found it clear. Before the first value one timer waits `firstMs` exactly; the first value
 * replaces it with the periodic check, started then (one timer per stream, not per value), so each
 * silence is counted from a check at most one period after its last value.
 */
class PeriodicWatch extends Watch {
  readonly period: number;
  private active = false;
  private quiet = 0;
  private readonly first: Subscription;
  private readonly start: number;
  private readonly checks: number;

  constructor(
    ms: number,
    firstMs: number,
    maxLateMs: number,
    scheduler: SchedulerLike,
    onTimeout: (error: TimeoutError) => void,
  ) {
    super(ms, firstMs, scheduler, onTimeout);
    // A silence from a value to the error spans `checks` whole periods after the check that saw the
    // value, and less than one before it: [checks·period, (checks + 1)·period) ⊂ [ms, ms + maxLateMs).
    this.period = timerDelay(Math.floor(maxLateMs / 2));
    this.checks = Math.ceil(ms / this.period);
    // Exact; a wait longer than a platform timer holds is re-armed for what is left (one clock read).
    this.start = firstMs > MAX_TIMER_DELAY ? scheduler.now() : 0;
    this.first = scheduler.schedule(rewait, timerDelay(firstMs), this);
    this.timers.add(this.first);
  }

  seen(): void {
    if (this.seenOne) {
      this.active = true;
      return;
    }
    if (this.timers.closed) return;
    this.seenOne = true;
    this.timers.remove(this.first);
    this.first.unsubscribe();
    this.timers.add(this.scheduler.schedule(tick, this.period, this));
  }

  /** The wait for the first value ended: errors, or the ms left of a wait too long for one timer. */
  waited(): number | undefined {
    const left = this.firstMs > MAX_TIMER_DELAY ? this.start + this.firstMs - this.scheduler.now() : 0;
    if (left > 0) return left;
    this.fire(new TimeoutError(this.firstMs));
    return undefined;
  }

  /** A period ended: whether to check again (false after erroring). */
  checked(): boolean {
    if (this.active) {
      this.active = false;
      this.quiet = 0;
    } else if (++this.quiet >= this.checks) {
      this.fire(new TimeoutError(this.ms));
      return false;
    }
    return true;
  }
}

/** {@link PeriodicWatch}'s check every period. */
function tick(this: SchedulerAction<PeriodicWatch>, watch?: PeriodicWatch): void {
  if (watch?.checked()) this.schedule(watch, watch.period);
}
