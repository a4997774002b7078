import type { StreamEvent } from '../../src/index.ts';

/** A tool-call id rxagent generated (`generateToolCallId()`): random on every run. */
const GENERATED_ID = /call_[0-9a-f]{24}/g;

/**
 * The events with the completion's timing (the only wall-clock part) blanked and generated
 * tool-call ids numbered in order of appearance (`generated-1` …), so two runs of the same
 * transcript compare equal.
 * @example expect(withoutTiming(split)).toEqual(withoutTiming(whole));
 */
export function withoutTiming(events: readonly StreamEvent[]): unknown[] {
  const timed = events.map((event) =>
    event.type === 'stream-completed'
      ? { ...event, response: { ...event.response, timing: 'timing' } }
      : event,
  );
  const ids = new Map<string, string>();
  const json = JSON.stringify(timed).replace(GENERATED_ID, (id) => {
    let name = ids.get(id);
    if (name === undefined) {
      name = `generated-${ids.size + 1}`;
      ids.set(id, name);
    }
    return name;
  });
  return JSON.parse(json) as unknown[];
}
