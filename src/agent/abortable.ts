import { Observable, type MonoTypeOperatorFunction } from 'rxjs';

/**
 * Errors with `signal.reason` when `signal` aborts (at once if it already has), after unsubscribing
 * from the source, so whatever the source holds open is cancelled first. An abort while `past()`
 * says the point of no return has passed (a run's final append is sent) is ignored: the source
 * ends as it would have.
 */
export function abortable<T>(
  signal: AbortSignal | undefined,
  past: () => boolean = () => false,
): MonoTypeOperatorFunction<T> {
  return (source) =>
    signal
      ? new Observable<T>((subscriber) => {
          if (signal.aborted) {
            subscriber.error(signal.reason);
            return;
          }
          // An observer of our own: subscribing `subscriber` itself would make unsubscribing the
          // source close it before the abort error reaches it.
          const subscription = source.subscribe({
            next: (value) => subscriber.next(value),
            error: (error: unknown) => subscriber.error(error),
            complete: () => subscriber.complete(),
          });
          const onAbort = () => {
            if (past()) return;
            subscription.unsubscribe();
            subscriber.error(signal.reason);
          };
          signal.addEventListener('abort', onAbort, { once: true });
          return () => {
            signal.removeEventListener('abort', onAbort);
            subscription.unsubscribe();
          };
        })
      : source;
}
