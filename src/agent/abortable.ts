import { Observable, type MonoTypeOperatorFunction, type Subscription, timer } from 'rxjs';

/**
 * Errors with `signal.reason` when `signal` aborts (at once if it already has), after unsubscribing
 * from the source, so whatever the source holds open is cancelled first. An abort while `past()`
 * says the point of no return has passed (a run's final append is sent) waits up to `graceMs` for
 * the source to end as it would have (a saved run is not failed); a source that has not ended by
 * then (a write that never settles) is cut and errors with the abort's reason after all.
 */
export function abortable<T>(
  signal: AbortSignal | undefined,
  past: () => boolean = () => false,
  graceMs = 30_000,
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
          let grace: Subscription | undefined;
          const cut = () => {
            subscription.unsubscribe();
            subscriber.error(signal.reason);
          };
          const onAbort = () => {
            if (past()) grace = timer(graceMs).subscribe(cut);
            else cut();
          };
          signal.addEventListener('abort', onAbort, { once: true });
          return () => {
            signal.removeEventListener('abort', onAbort);
            grace?.unsubscribe();
            subscription.unsubscribe();
          };
        })
      : source;
}
