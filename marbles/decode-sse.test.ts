import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamLimitError } from '../src/index.ts';
import { decodeSSE, type SSEMessage } from '../src/operators/index.ts';
import { splitAnywhere } from '../test/support/split.ts';
import { chunks$, collectSync, createScheduler, utf8 } from './support/helpers.ts';

const decodeAll = (chunks: readonly (Uint8Array | string)[], options = {}) =>
  collectSync(chunks$(chunks).pipe(decodeSSE(options)));

describe('decodeSSE', () => {
  it('emits one message per event, when its blank line arrives', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-c---|', { a: 'data: hel', b: 'lo\n', c: '\nevent: ping\nid: 7\ndata: x\n\n' });
      expectObservable(src.pipe(decodeSSE())).toBe('-----(xy)|', {
        x: { data: 'hello' },
        y: { event: 'ping', id: '7', data: 'x' },
      });
      expectSubscriptions(src.subscriptions).toBe('^--------!');
    });
  });

  it('joins multi-line data with \\n and keeps an empty id', () => {
    expect(decodeAll(['id:\ndata: a\ndata:b\ndata\n\n']).values).toEqual([{ id: '', data: 'a\nb\n' }]);
  });

  it('passes source errors through', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a-#', { a: 'data: 1\n\n' }, new Error('boom'));
      expectObservable(src.pipe(decodeSSE())).toBe('-x-#', { x: { data: '1' } }, new Error('boom'));
    });
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a---a--|', { a: 'data: 1\n\n' });
      expectObservable(src.pipe(decodeSSE()), '---!').toBe('-x-', { x: { data: '1' } });
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('decodes a UTF-8 character split across byte chunks', () => {
    const bytes = utf8('data: é€😀\n\n');
    const chunks = [bytes.subarray(0, 7), bytes.subarray(7, 9), bytes.subarray(9, 12), bytes.subarray(12)];
    expect(decodeAll(chunks).values).toEqual([{ data: 'é€😀' }]);
  });

  it('accepts CR, LF and CRLF line endings, CRLF split across chunks', () => {
    expect(decodeAll(['data: a\r', '\ndata: b\r\n\r\n']).values).toEqual([{ data: 'a\nb' }]);
    expect(decodeAll(['data: a\rdata: b\r\r', 'data: c\n\n']).values).toEqual([
      { data: 'a\nb' },
      { data: 'c' },
    ]);
  });

  it('drops exactly one leading BOM, in bytes (even split) or text', () => {
    const bytes = utf8('\uFEFFdata: x\n\n');
    expect(decodeAll([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)]).values).toEqual([
      { data: 'x' },
    ]);
    expect(decodeAll(['\uFEFFdata: y\n\n']).values).toEqual([{ data: 'y' }]);
  });

  it('reports comments and retry, ignores unknown fields and an invalid retry', () => {
    const comments: string[] = [];
    const retries: number[] = [];
    const result = decodeAll([': keep-alive\nretry: 3000\nretry: soon\nfoo: bar\nnonsense\ndata: ok\n\n'], {
      onComment: (text: string) => comments.push(text),
      onRetry: (ms: number) => retries.push(ms),
    });
    expect(result.values).toEqual([{ data: 'ok' }]);
    expect(comments).toEqual(['keep-alive']);
    expect(retries).toEqual([3000]);
  });

  it('discards an event without its closing blank line at completion, but reports a final comment', () => {
    const comments: string[] = [];
    const result = decodeAll(['data: done\n\ndata: cut', ' off\n', ': bye'], {
      onComment: (text: string) => comments.push(text),
    });
    expect(result).toEqual({ values: [{ data: 'done' }], completed: true });
    expect(comments).toEqual(['bye']);
  });

  it('flushes partial bytes when text follows them, and at completion', () => {
    expect(decodeAll([utf8('data: a'), '\n\n']).values).toEqual([{ data: 'a' }]);
    const cut = utf8('data: é\n\n: x');
    expect(decodeAll([cut.subarray(0, 7), '\n\n']).values).toEqual([{ data: '\uFFFD' }]);
  });

  it('errors the stream when a callback throws', () => {
    const boom = new Error('callback failed');
    const fail = () => {
      throw boom;
    };
    expect(decodeAll(['data: 1\n\n: c\ndata: 2\n\n'], { onComment: fail })).toEqual({
      values: [{ data: '1' }],
      error: boom,
      completed: false,
    });
    expect(decodeAll(['data: 1\n\n', ': c'], { onComment: fail }).error).toBe(boom);
  });

  it('gives the same messages for any byte split of the stream', () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, ''));
    const event = fc.record({
      event: fc.option(fc.stringMatching(/^[a-z_]{1,8}$/), { nil: undefined }),
      id: fc.option(fc.stringMatching(/^[a-z0-9]{0,4}$/), { nil: undefined }),
      data: fc.array(text, { minLength: 1, maxLength: 3 }),
      comment: fc.boolean(),
    });
    const eol = fc.constantFrom('\n', '\r', '\r\n');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(event, eol), { maxLength: 6 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.boolean(),
        (events, bom, cuts, asText) => {
          let wire = bom ? '\uFEFF' : '';
          const expected: SSEMessage[] = [];
          for (const [e, nl] of events) {
            if (e.comment) wire += `: note${nl}`;
            if (e.event !== undefined) wire += `event: ${e.event}${nl}`;
            if (e.id !== undefined) wire += `id: ${e.id}${nl}`;
            for (const line of e.data) wire += `data: ${line}${nl}`;
            wire += nl;
            const data = e.data.map((line) => utf8(line)).map((b) => new TextDecoder().decode(b));
            expected.push({
              data: data.join('\n'),
              ...(e.event === undefined ? {} : { event: e.event }),
              ...(e.id === undefined ? {} : { id: e.id }),
            });
          }
          const bytes = utf8(wire);
          const whole = decodeAll([bytes]);
          const split = decodeAll(asText ? splitAnywhere(wire, cuts) : splitAnywhere(bytes, cuts));
          expect(whole.values).toEqual(expected);
          expect(split.values).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('decodeSSE: maxEventBytes', () => {
  it('errors with StreamLimitError once an event grows past the cap, and unsubscribes the source', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-c-d-|', { a: 'data: 1\n\n', b: 'data: xxxx', c: 'xxxxxx', d: 'xx\n\n' });
      expectObservable(src.pipe(decodeSSE({ maxEventBytes: 12 }))).toBe(
        '-x---#',
        { x: { data: '1' } },
        new StreamLimitError('A server-sent event exceeded 12 characters without ending', 12),
      );
      expectSubscriptions(src.subscriptions).toBe('^----!');
    });
  });

  it('counts each event afresh: many events, each under the cap, pass at any split', () => {
    const body = Array.from({ length: 50 }, (_, i) => `data: ${'y'.repeat(20)}${i}\n\n`).join('');
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 30 }), (cuts) => {
        const chunks = splitAnywhere(body, cuts);
        const { values, error } = decodeAll(chunks, { maxEventBytes: 64 });
        expect(error).toBeUndefined();
        expect(values).toHaveLength(50);
      }),
      { numRuns: 50 },
    );
  });

  it('comments reset the count (keep-alives between long pauses are fine)', () => {
    const { values, error } = decodeAll([': ping\n', ': ping\n', ': ping\n', 'data: 1\n\n'], {
      maxEventBytes: 10,
    });
    expect(error).toBeUndefined();
    expect(values).toEqual([{ data: '1' }]);
  });
});
