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

/** Splits `bytes` at the given (unsorted, possibly repeated) cut points. */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/** Splits `text` at the given code-unit cut points (which may fall inside a surrogate pair). */
export function splitText(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = 0;
  for (const point of points) {
    parts.push(text.slice(start, point));
    start = point;
  }
  parts.push(text.slice(start));
  return parts;
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** An observable of the given chunks, for synchronous runs. */
export const chunks$ = <T>(chunks: readonly T[]): Observable<T> => of(...chunks);
