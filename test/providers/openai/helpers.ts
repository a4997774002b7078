import { readFileSync } from 'node:fs';
import type { Observable } from 'rxjs';
import type { StreamEvent } from '../../../src/index.ts';

/** The text of a fixture file in `./fixtures`. */
export const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** What a stream did: its events, and the error it ended with (if any). */
export interface Settled {
  events: StreamEvent[];
  error?: unknown;
}

/** Subscribes and resolves when the stream ends, with its events and error. */
export function settle(events$: Observable<StreamEvent>): Promise<Settled> {
  return new Promise((resolve) => {
    const events: StreamEvent[] = [];
    events$.subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error }),
      complete: () => resolve({ events }),
    });
  });
}

/** Events with the timing (the only non-deterministic part) blanked, for equality checks. */
export function withoutTiming(events: readonly StreamEvent[]): unknown[] {
  return events.map((event) =>
    event.type === 'stream-completed'
      ? { ...event, response: { ...event.response, timing: 'timing' } }
      : event,
  );
}

/** A settled stream in a comparable form: events without timing, error as class name + message. */
export function comparable(settled: Settled): unknown {
  const { error } = settled;
  return {
    events: withoutTiming(settled.events),
    error: error instanceof Error ? `${error.name}: ${error.message}` : error,
  };
}

/** The concatenated text deltas. */
export const textOf = (events: readonly StreamEvent[]): string =>
  events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
