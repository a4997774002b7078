import type { StreamEvent } from '../../../src/index.ts';
import { readFixtures } from '../../support/read-fixtures.ts';
import type { Settled } from '../../support/settle.ts';
import { withoutTiming } from '../../support/without-timing.ts';

/** The text of a fixture file in `./fixtures`. */
export const fixture = readFixtures(import.meta.url);

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
