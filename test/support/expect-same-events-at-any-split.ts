import fc from 'fast-check';
import { expect } from 'vitest';
import type { StreamEvent } from '../../src/index.ts';
import { splitAt } from './split.ts';
import { withoutTiming } from './without-timing.ts';

/**
 * Asserts that a stream yields the same events (timing aside) whether its body arrives whole, one
 * byte per chunk, or split at 20 random sets of cut points.
 * @param bytes the response body
 * @param eventsFor runs the stream with the body served as these chunks and resolves with its events
 * @example await expectSameEventsAtAnySplit(bytes, (split) => { chunks = split; return collect(run()); });
 */
export async function expectSameEventsAtAnySplit(
  bytes: Uint8Array,
  eventsFor: (chunks: Uint8Array[]) => Promise<StreamEvent[]>,
): Promise<void> {
  const whole = withoutTiming(await eventsFor([bytes]));
  const oneByteEach = splitAt(
    bytes,
    Array.from({ length: bytes.length }, (_, i) => i),
  );
  expect(withoutTiming(await eventsFor(oneByteEach))).toEqual(whole);
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 120 }),
      async (cuts) => {
        expect(withoutTiming(await eventsFor(splitAt(bytes, cuts)))).toEqual(whole);
      },
    ),
    { numRuns: 20 },
  );
}
