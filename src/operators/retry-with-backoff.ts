import { type MonoTypeOperatorFunction, Observable, type Observer, type Subscription, timer } from 'rxjs';
import { isRetryableError } from '../core/index.ts';

/** Options of {@link retryWithBackoff}. */
export interface RetryWithBackoffOptions {
  /** Retries after the first attempt. @default 2 */
  maxRetries?: number;
  /** Base delay of the first retry; doubles on each further retry. @default 500 */
  initialDelayMs?: number;
  /** Cap of the exponential delay. @default 8000 */
  maxDelayMs?: number;
  /** A server-requested wait (`retryAfterMs`) longer than this is not waited for: the error passes. @default 60000 */
  maxRetryAfterMs?: number;
  /** Whether to retry `error`; `attempt` is the retry about to be made (1-based). @default isRetryableError */
  shouldRetry?: (error: unknown, attempt: number) => boolean;
  /** Random numbers in [0, 1) for the jitter. @default Math.random */
  random?: () => number;
}

interface NormalizedRetryOptions {
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
  shouldRetry: (error: unknown, attempt: number) => boolean;
  random: () => number;
}

function normalize(options: number | RetryWithBackoffOptions): NormalizedRetryOptions {
  const o = typeof options === 'number' ? { maxRetries: options } : options;
  return {
    maxRetries: o.maxRetries ?? 2,
    initialDelayMs: o.initialDelayMs ?? 500,
    maxDelayMs: o.maxDelayMs ?? 8000,
    maxRetryAfterMs: o.maxRetryAfterMs ?? 60_000,
    shouldRetry: o.shouldRetry ?? isRetryableError,
    random: o.random ?? Math.random,
  };
}

function retryAfterOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const value: unknown = Reflect.get(error, 'retryAfterMs');
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * The wait before retry number `attempt` (1-based) when the server named none: exponential backoff
 * with equal ("partial") jitter — half of `min(maxDelayMs, initialDelayMs·2^(attempt−1))` fixed plus
 * up to the other half at random, so retries spread out yet never fire immediately.
 */
function backoffDelay(attempt: number, o: NormalizedRetryOptions): number {
  const base = Math.min(o.maxDelayMs, o.initialDelayMs * 2 ** (attempt - 1));
  return Math.round(base / 2 + o.random() * (base / 2));
}

/**
 * Resubscribes a cold source that failed before emitting anything, with exponential backoff and
 * equal jitter (half the delay fixed, half random), honouring the error's `retryAfterMs`. Once the current attempt
 * has emitted a value, errors pass through: a stream is never replayed after its first event.
 * Waits through rxjs `timer`, so marble tests run it in virtual time.
 * @param options retry options, or a number: `maxRetries`.
 * @default { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 }
 * @example
 * httpStream(req).pipe(retryWithBackoff({ maxRetries: 3 }))
 */
export function retryWithBackoff<T>(
  options: number | RetryWithBackoffOptions = {},
): MonoTypeOperatorFunction<T> {
  const attempts = retryingSubscriber(options);
  // One hop per value, not tap + retry: this sits on every token of every stream.
  return (source: Observable<T>) =>
    new Observable<T>((subscriber) => attempts(source, subscriber, subscriber));
}

/**
 * {@link retryWithBackoff} without its own Observable: subscribes `source` with the retries,
 * feeding `downstream` (a plain observer, such as the provider pipeline's next stages, so no hop
 * per value between them) and adding every attempt and wait to `owner`, whose unsubscription ends
 * whichever is live.
 * @example retryingSubscriber({ maxRetries: 3 })(attempt$, stages, subscriber)
 */
export function retryingSubscriber(
  options: number | RetryWithBackoffOptions = {},
): <T>(source: Observable<T>, downstream: Observer<T>, owner: Subscription) => void {
  const o = normalize(options);
  return <T>(source: Observable<T>, downstream: Observer<T>, owner: Subscription): void => {
    new Retrying(o, source, downstream, owner).attempt();
  };
}

/**
 * One subscription's retries: the observer of every attempt. A class rather than an observer of
 * closures made per subscription: `next` runs on every token, and a method of one prototype is
 * one function to V8 for every stream, where a closure made per stream is a new one, compiled again
 * from the interpreter up in each of the first streams of a process.
 *
 * Under RxJS's `useDeprecatedNextContext` each attempt calls it on a copy (`Object.create`) of the
 * observer that subscribed that attempt; a retry subscribes from the copy that saw the error, so
 * the counts carry over from one attempt to the next (`marbles/operator-stages.test.ts`).
 */
class Retrying<T> implements Observer<T> {
  // Never reset: after the first value no error is retried, whatever the attempt.
  private emitted = false;
  private attempts = 0;
  private readonly options: NormalizedRetryOptions;
  private readonly source: Observable<T>;
  private readonly downstream: Observer<T>;
  private readonly owner: Subscription;

  constructor(
    options: NormalizedRetryOptions,
    source: Observable<T>,
    downstream: Observer<T>,
    owner: Subscription,
  ) {
    this.options = options;
    this.source = source;
    this.downstream = downstream;
    this.owner = owner;
  }

  /**
   * Subscribes the next attempt. Each attempt and each wait is added to the owner: unsubscribing
   * ends whichever is live, one added after the consumer left ends at once, and finished ones drop
   * out of the list.
   */
  attempt(): void {
    this.owner.add(this.source.subscribe(this));
  }

  next(value: T): void {
    this.emitted = true;
    this.downstream.next(value);
  }

  error(error: unknown): void {
    const attempt = ++this.attempts;
    if (this.giveUp(error, attempt)) {
      this.downstream.error(error);
      return;
    }
    const wait = retryAfterOf(error) ?? backoffDelay(attempt, this.options);
    this.owner.add(timer(wait).subscribe(() => this.attempt()));
  }

  complete(): void {
    this.downstream.complete();
  }

  private giveUp(error: unknown, attempt: number): boolean {
    const o = this.options;
    if (this.emitted || attempt > o.maxRetries || !o.shouldRetry(error, attempt)) return true;
    const retryAfter = retryAfterOf(error);
    return retryAfter !== undefined && retryAfter > o.maxRetryAfterMs;
  }
}
