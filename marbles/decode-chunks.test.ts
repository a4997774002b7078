import { describe, it } from 'vitest';
import { IncompleteStreamError, type ProviderEvent } from '../src/index.ts';
import { ndjsonDecoder } from '../src/operators/index.ts';
import { type ChunkMapper, decodeChunks } from '../src/providers/shared/index.ts';
import { createScheduler, utf8 } from './support/helpers.ts';

interface Line {
  t?: string;
  done?: boolean;
}

/** A mapper like a provider's: text per line, `finish` at the `done` line, incomplete without it. */
function lineMapper(): ChunkMapper<Line> {
  let done = false;
  return {
    map(line) {
      if (line.done) {
        done = true;
        return [{ type: 'finish', finishReason: 'stop' }];
      }
      if (line.t === 'boom') throw new Error('bad chunk');
      return [{ type: 'text-delta', text: line.t ?? '' }];
    },
    end() {
      if (!done) throw new IncompleteStreamError();
      return [];
    },
  };
}

const finish: ProviderEvent = { type: 'finish', finishReason: 'stop' };
const bytes = {
  a: utf8('{"t":"a"}\n'),
  s: utf8('{"t":'),
  b: utf8('"b"}\n'),
  d: utf8('{"done":true}\n'),
  x: utf8('{"t":"boom"}\n'),
};

describe('decodeChunks', () => {
  it('decodes and maps each unit as its bytes arrive; ends with the mapper', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-s-b-d-|', bytes);
      expectObservable(src.pipe(decodeChunks(ndjsonDecoder<Line>(), lineMapper()))).toBe('-a---b-f-|', {
        a: { type: 'text-delta', text: 'a' },
        b: { type: 'text-delta', text: 'b' },
        f: finish,
      });
      expectSubscriptions(src.subscriptions).toBe('^--------!');
    });
  });

  it('keeps the finished turn when the source errors after the terminal event', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-d-#', bytes, new Error('socket closed'));
      expectObservable(src.pipe(decodeChunks(ndjsonDecoder<Line>(), lineMapper()))).toBe('-a-f-|', {
        a: { type: 'text-delta', text: 'a' },
        f: finish,
      });
    });
  });

  it('passes the source error before the terminal event; the body ending early is IncompleteStreamError', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const cut = new Error('socket closed');
      expectObservable(cold('-a-#', bytes, cut).pipe(decodeChunks(ndjsonDecoder<Line>(), lineMapper()))).toBe(
        '-a-#',
        { a: { type: 'text-delta', text: 'a' } },
        cut,
      );
      expectObservable(cold('-a-|', bytes).pipe(decodeChunks(ndjsonDecoder<Line>(), lineMapper()))).toBe(
        '-a-#',
        { a: { type: 'text-delta', text: 'a' } },
        new IncompleteStreamError(),
      );
    });
  });

  it('a mapper throw errors the stream and unsubscribes the source', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-x-d-|', bytes);
      expectObservable(src.pipe(decodeChunks(ndjsonDecoder<Line>(), lineMapper()))).toBe(
        '-a-#',
        { a: { type: 'text-delta', text: 'a' } },
        new Error('bad chunk'),
      );
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-d-|', bytes);
      expectObservable(src.pipe(decodeChunks(ndjsonDecoder<Line>(), lineMapper())), '--!').toBe('-a', {
        a: { type: 'text-delta', text: 'a' },
      });
      expectSubscriptions(src.subscriptions).toBe('^-!');
    });
  });
});
