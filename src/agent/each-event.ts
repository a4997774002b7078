import type { Observable } from 'rxjs';

/**
 * A run (or any stream) as an async iterable for `for await`: events are buffered until read,
 * the stream's error is thrown from the loop, and leaving the loop early (`break`, `return`, a
 * throw) unsubscribes, which cancels the run.
 * @example for await (const event of eachEvent(agent.run('Hi'))) if (event.type === 'text-delta') write(event.text);
 */
export function eachEvent<T>(run$: Observable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const buffered: T[] = [];
      let ended: { error: unknown } | 'complete' | undefined;
      let wake: (() => void) | undefined;
      const notify = () => {
        wake?.();
        wake = undefined;
      };
      const subscription = run$.subscribe({
        next: (value) => {
          buffered.push(value);
          notify();
        },
        error: (error: unknown) => {
          ended = { error };
          notify();
        },
        complete: () => {
          ended = 'complete';
          notify();
        },
      });
      const done = (): IteratorResult<T> => ({ done: true, value: undefined });
      return {
        async next(): Promise<IteratorResult<T>> {
          for (;;) {
            if (buffered.length > 0) return { done: false, value: buffered.shift() as T };
            if (ended === 'complete') return done();
            if (ended) {
              const { error } = ended;
              ended = 'complete';
              throw error;
            }
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        },
        return(): Promise<IteratorResult<T>> {
          subscription.unsubscribe();
          buffered.length = 0;
          ended = 'complete';
          return Promise.resolve(done());
        },
      };
    },
  };
}
