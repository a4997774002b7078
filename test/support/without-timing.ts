import type { StreamEvent } from '../../src/index.ts';

/**
 * The events with the completion's timing (the only wall-clock part) blanked, so two runs of the
 * same transcript compare equal.
 * @example expect(withoutTiming(split)).toEqual(withoutTiming(whole));
 */
export function withoutTiming(events: readonly StreamEvent[]): unknown[] {
  return events.map((event) =>
    event.type === 'stream-completed'
      ? { ...event, response: { ...event.response, timing: 'timing' } }
      : event,
  );
}
