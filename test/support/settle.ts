import type { Observable } from 'rxjs';
import type { StreamEvent } from '../../src/index.ts';

/** What a stream did: its events, and the error it ended with (if any). */
export interface Settled<T = StreamEvent> {
  events: T[];
  error?: unknown;
}

/**
 * Subscribes and resolves when the stream ends, with what it emitted and the error it ended with;
 * it never rejects, so a test can assert on the events before a failure.
 * @example const { events, error } = await settle(model.stream({ messages: 'hi' }));
 */
export function settle<T = StreamEvent>(events$: Observable<T>): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const events: T[] = [];
    events$.subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error }),
      complete: () => resolve({ events }),
    });
  });
}
