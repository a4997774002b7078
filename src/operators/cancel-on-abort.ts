import { type MonoTypeOperatorFunction, Observable } from 'rxjs';

/**
 * Ties a stream to an `AbortSignal`: when it aborts, the source is unsubscribed (its request
 * aborted, its timers cleared) and the stream errors with `signal.reason`, so a consumer awaiting
 * it (`lastValueFrom`, `complete()`) rejects with the reason rather than waiting forever. A signal
 * already aborted errors at subscription without subscribing the source: nothing is sent.
 * `undefined` returns the source unchanged.
 * @param signal the caller's signal, e.g. `AbortSignal.timeout(30_000)`
 * @example model.stream(request).pipe(cancelOnAbort(controller.signal))
 */
export function cancelOnAbort<T>(signal: AbortSignal | undefined): MonoTypeOperatorFunction<T> {
  if (signal === undefined) return (source) => source;
  return (source) =>
    new Observable<T>((subscriber) => {
      if (signal.aborted) {
        subscriber.error(signal.reason);
        return;
      }
      const onAbort = () => subscriber.error(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      subscriber.add(() => signal.removeEventListener('abort', onAbort));
      subscriber.add(source.subscribe(subscriber));
    });
}
