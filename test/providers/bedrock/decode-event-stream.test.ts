import fc from 'fast-check';
import { from, lastValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { IncompleteStreamError, StreamParseError } from '../../../src/index.ts';
import {
  decodeEventStream,
  type EventStreamEvent,
} from '../../../src/providers/bedrock/decode-event-stream.ts';
import { loadAwsModules } from '../../../src/providers/bedrock/load-aws-modules.ts';
import { settle } from '../../support/settle.ts';
import { splitAt } from '../../support/split.ts';
import { concatBytes, errorFrame, frame } from './event-stream.ts';

const aws = await loadAwsModules();
const decode = (chunks: readonly Uint8Array[]) =>
  lastValueFrom(from(chunks).pipe(decodeEventStream(aws), toArray()));
const failure = (chunks: readonly Uint8Array[]) =>
  decode(chunks).then(
    () => {
      throw new Error('expected an error');
    },
    (error: unknown) => error,
  );

const frames = [
  frame('event', 'messageStart', { role: 'assistant' }),
  frame('event', 'contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Grüße 👋 — “quotes”' } }),
  frame('event', 'messageStop', { stopReason: 'end_turn' }),
  frame('exception', 'throttlingException', { message: 'slow down' }),
];
const expected: EventStreamEvent[] = [
  { messageType: 'event', eventType: 'messageStart', payload: { role: 'assistant' } },
  {
    messageType: 'event',
    eventType: 'contentBlockDelta',
    payload: { contentBlockIndex: 0, delta: { text: 'Grüße 👋 — “quotes”' } },
  },
  { messageType: 'event', eventType: 'messageStop', payload: { stopReason: 'end_turn' } },
  { messageType: 'exception', eventType: 'throttlingException', payload: { message: 'slow down' } },
];
const all = concatBytes(frames);

describe('decodeEventStream', () => {
  it('decodes whole frames, one chunk per frame and all in one chunk', async () => {
    expect(await decode(frames)).toEqual(expected);
    expect(await decode([all])).toEqual(expected);
  });

  it('decodes the same events at every byte split (1-byte chunks included)', async () => {
    expect(await decode([...all].map((b) => Uint8Array.of(b)))).toEqual(expected);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: all.length - 1 }), { maxLength: 40 }),
        async (cuts) => {
          expect(await decode(splitAt(all, cuts))).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads generic error messages and empty payloads', async () => {
    const events = await decode([
      errorFrame('InternalFailure', 'boom'),
      frame('event', 'contentBlockStop', undefined, ''),
    ]);
    expect(events).toEqual([
      { messageType: 'error', eventType: 'InternalFailure', payload: { message: 'boom' } },
      { messageType: 'event', eventType: 'contentBlockStop', payload: {} },
    ]);
  });

  it('errors with StreamParseError (raw payload) when a payload is not JSON, after the good events', async () => {
    const bad = frame('event', 'contentBlockDelta', undefined, '{"delta": nope}');
    const { events, error } = await settle(from([frames[0] as Uint8Array, bad]).pipe(decodeEventStream(aws)));
    expect(events).toHaveLength(1);
    expect(StreamParseError.is(error)).toBe(true);
    expect((error as StreamParseError).raw).toBe('{"delta": nope}');
  });

  it('errors with StreamParseError for a corrupt CRC', async () => {
    const corrupt = frames[1]?.slice() as Uint8Array;
    corrupt[corrupt.length - 10] = (corrupt[corrupt.length - 10] ?? 0) ^ 0xff;
    const error = await failure([corrupt]);
    expect(StreamParseError.is(error)).toBe(true);
    expect(IncompleteStreamError.is(error)).toBe(false);
    expect((error as StreamParseError).raw).toContain('contentBlockDelta');
  });

  it('errors with StreamParseError for an HTML page and IncompleteStreamError for a cut frame', async () => {
    const html = new TextEncoder().encode('<!DOCTYPE html><html><body>Sign in</body></html>');
    const error = await failure([html]);
    expect(StreamParseError.is(error)).toBe(true);
    expect((error as StreamParseError).raw).toContain('<!DOCTYPE html>');
    const tiny = await failure([Uint8Array.of(0, 0, 0, 4)]);
    expect(StreamParseError.is(tiny)).toBe(true);
    const cut = await failure([all.subarray(0, all.length - 3)]);
    expect(IncompleteStreamError.is(cut)).toBe(true);
    expect(await decode([])).toEqual([]);
  });

  it('unsubscribes from the source when the consumer unsubscribes', () => {
    const source = new Subject<Uint8Array>();
    const seen: EventStreamEvent[] = [];
    const subscription = source.pipe(decodeEventStream(aws)).subscribe((e) => seen.push(e));
    source.next(frames[0] as Uint8Array);
    subscription.unsubscribe();
    expect(source.observed).toBe(false);
    expect(seen).toHaveLength(1);
  });
});
