import { type Observable, of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';

/** A TestScheduler that compares frames with vitest's deep equality. */
export const createScheduler = (): TestScheduler =>
  new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** Subscribes synchronously and returns what a synchronous source produced. */
export function collectSync<T>(source$: Observable<T>): { values: T[]; error?: unknown; completed: boolean } {
  const values: T[] = [];
  let error: unknown;
  let failed = false;
  let completed = false;
  source$.subscribe({
    next: (value) => values.push(value),
    error: (err: unknown) => {
      failed = true;
      error = err;
    },
    complete: () => {
      completed = true;
    },
  });
  return failed ? { values, error, completed } : { values, completed };
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** An observable of the given chunks, for synchronous runs. */
export const chunks$ = <T>(chunks: readonly T[]): Observable<T> => of(...chunks);
