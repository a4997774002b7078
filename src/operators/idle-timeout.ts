import { type MonoTypeOperatorFunction, throwError, timeout } from 'rxjs';
import { TimeoutError } from '../core/index.ts';

/** Options of {@link idleTimeout}. */
export interface IdleTimeoutOptions {
  /** Longest silence between two values (and before the first, unless `firstMs` is set). */
  ms: number;
  /** Longest wait for the first value, from subscription (e.g. longer, for a slow first token). */
  firstMs?: number;
}

/**
 * Errors with `TimeoutError` when no value arrives within `ms` of subscription (or `firstMs`, when
 * given) or of the previous value; unsubscribes the source. Built on rxjs `timeout`.
 * @param options the silence allowed in ms, or `{ ms, firstMs }`.
 * @example
 * model.stream(request).pipe(idleTimeout({ ms: 30_000, firstMs: 120_000 }))
 */
export function idleTimeout<T>(options: number | IdleTimeoutOptions): MonoTypeOperatorFunction<T> {
  const { ms, firstMs = ms } = typeof options === 'number' ? { ms: options } : options;
  return timeout({
    first: firstMs,
    each: ms,
    with: ({ seen }) => throwError(() => new TimeoutError(seen === 0 ? firstMs : ms)),
  });
}
