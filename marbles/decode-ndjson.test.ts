import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IncompleteStreamError, StreamLimitError, StreamParseError } from '../src/index.ts';
import { decodeNDJSON } from '../src/operators/index.ts';
import { splitAnywhere } from '../test/support/split.ts';
import { chunks$, collectSync, createScheduler, utf8 } from './support/helpers.ts';

const decodeAll = (chunks: readonly (Uint8Array | string)[]) =>
  collectSync(chunks$(chunks).pipe(decodeNDJSON()));

describe('decodeNDJSON', () => {
  it('emits one value per line, as its newline arrives', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-c-|', { a: '{"n":1}\n{"n"', b: ':2}', c: '\n\n  \n[3]' });
      expectObservable(src.pipe(decodeNDJSON())).toBe('-x---y-(z|)', { x: { n: 1 }, y: { n: 2 }, z: [3] });
      expectSubscriptions(src.subscriptions).toBe('^------!');
    });
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a---a--|', { a: '1\n' });
      expectObservable(src.pipe(decodeNDJSON()), '---!').toBe('-x-', { x: 1 });
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('passes source errors through', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-#', { a: 'true\nfal' }, new Error('boom'));
      expectObservable(src.pipe(decodeNDJSON())).toBe('-x-#', { x: true }, new Error('boom'));
    });
  });

  it('errors with StreamParseError carrying the malformed line, and stops', () => {
    const result = decodeAll(['{"ok":1}\r\n{"broken":\r\n{"never":1}\n']);
    expect(result.values).toEqual([{ ok: 1 }]);
    expect(StreamParseError.is(result.error)).toBe(true);
    expect(result.error).toMatchObject({ raw: '{"broken":', code: 'stream_parse_error' });
    expect(decodeAll(['1\n', 'nope']).error).toMatchObject({ raw: 'nope' });
  });

  it('a last line cut short (no newline, not JSON) is IncompleteStreamError keeping the text', () => {
    const cut = decodeAll(['{"a":1}\n{"message":{"con', 'tent":"Hel']);
    expect(cut.values).toEqual([{ a: 1 }]);
    expect(IncompleteStreamError.is(cut.error)).toBe(true);
    expect(cut.error).toMatchObject({ raw: '{"message":{"content":"Hel', code: 'stream_incomplete' });
    // Before any value: the same, so a provider retries it as it does an SSE body cut short.
    expect(IncompleteStreamError.is(decodeAll([utf8('{"mess')]).error)).toBe(true);
    // A malformed line that did end is still a parse error, not a cut.
    expect(IncompleteStreamError.is(decodeAll(['{"broken":\n']).error)).toBe(false);
  });

  it('tolerates CRLF (also split), a BOM, and UTF-8 characters split across chunks', () => {
    const bytes = utf8('\uFEFF{"t":"é€😀"}\r\n"x"\r\n');
    expect(
      decodeAll([bytes.subarray(0, 2), bytes.subarray(2, 10), bytes.subarray(10, 20), bytes.subarray(20)]),
    ).toEqual({
      values: [{ t: 'é€😀' }, 'x'],
      completed: true,
    });
    expect(decodeAll(['\uFEFF1\r', '\n2\r\n']).values).toEqual([1, 2]);
  });

  it('flushes partial bytes when text follows them', () => {
    expect(decodeAll([utf8('{"a":'), '1}\n']).values).toEqual([{ a: 1 }]);
    expect(decodeAll([utf8('"é"').subarray(0, 2)]).error).toMatchObject({ raw: '"\uFFFD' });
  });

  it('gives the same values for any byte split of the stream', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.array(fc.constantFrom('\n', '\r\n', '\n\n', '\n  \n'), { minLength: 8, maxLength: 8 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.boolean(),
        (values, eols, trailing, cuts, asText) => {
          const expected = values.map((v) => JSON.parse(JSON.stringify(v)));
          let wire = '';
          values.forEach((value, i) => {
            wire += JSON.stringify(value);
            if (trailing || i < values.length - 1) wire += eols[i];
          });
          const bytes = utf8(wire);
          const split = decodeAll(asText ? splitAnywhere(wire, cuts) : splitAnywhere(bytes, cuts));
          expect(decodeAll([bytes]).values).toEqual(expected);
          expect(split).toEqual({ values: expected, completed: true });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('decodeNDJSON: maxLineBytes', () => {
  it('errors with StreamLimitError once a line grows past the cap, and unsubscribes the source', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-c-|', { a: '1\n[', b: '1,2,3,4,5', c: ',6]\n' });
      expectObservable(src.pipe(decodeNDJSON({ maxLineBytes: 8 }))).toBe(
        '-x-#',
        { x: 1 },
        new StreamLimitError('An NDJSON line exceeded 8 bytes', 8),
      );
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('counts each line afresh at any split', () => {
    const body = Array.from({ length: 40 }, (_, i) => JSON.stringify({ i, pad: 'z'.repeat(10) })).join('\n');
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 30 }), (cuts) => {
        const chunks = splitAnywhere(body, cuts);
        const { values, error } = collectSync(chunks$(chunks).pipe(decodeNDJSON({ maxLineBytes: 40 })));
        expect(error).toBeUndefined();
        expect(values).toHaveLength(40);
      }),
      { numRuns: 50 },
    );
  });
});
