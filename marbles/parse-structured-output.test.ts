import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { z } from 'zod';
import {
  assistant,
  type ChatResponse,
  type StandardSchemaV1,
  type StreamCompleted,
  type StreamEvent,
  StructuredOutputError,
} from '../src/core/index.ts';
import { parseStructuredOutput } from '../src/operators/index.ts';
import { createScheduler } from './support/helpers.ts';

const completed = (text: string, extra: Partial<ChatResponse> = {}): StreamCompleted => ({
  type: 'stream-completed',
  response: {
    message: assistant(text),
    text,
    toolCalls: [],
    finishReason: 'stop',
    provider: 'test',
    model: 'm',
    timing: { totalMs: 1 },
    ...extra,
  },
});
const delta: StreamEvent = { type: 'text-delta', text: '{"a":' };
const schema = z.object({ a: z.number().transform((n) => n * 2) });

describe('parseStructuredOutput', () => {
  it('sets response.object to the validated output (transforms applied) on stream-completed', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<StreamEvent>('-d-c|', { d: delta, c: completed('{"a":21}') });
      const done = completed('{"a":21}');
      expectObservable(src.pipe(parseStructuredOutput({ type: 'json', schema }))).toBe('-d-c|', {
        d: delta,
        c: { ...done, response: { ...done.response, object: { a: 42 } } },
      });
      expectSubscriptions(src.subscriptions).toBe('^---!');
    });
  });

  it('parses JSON without a validator (a JSON Schema or none), tolerating a code fence', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const text = '```json\n{"a":[1,2]}\n```';
      const src = cold<StreamEvent>('-c|', { c: completed(text) });
      const done = completed(text);
      expectObservable(src.pipe(parseStructuredOutput({ type: 'json', schema: { type: 'object' } }))).toBe(
        '-c|',
        { c: { ...done, response: { ...done.response, object: { a: [1, 2] } } } },
      );
    });
  });

  it('errors with StructuredOutputError (text and issues) on broken JSON or a mismatch', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const broken = cold<StreamEvent>('-d-c|', { d: delta, c: completed('{"a":') });
      expectObservable(broken.pipe(parseStructuredOutput({ type: 'json' }))).toBe(
        '-d-#',
        { d: delta },
        expect.objectContaining({ name: 'StructuredOutputError', text: '{"a":' }),
      );
      const wrong = cold<StreamEvent>('-c|', { c: completed('{"a":"x"}') });
      expectObservable(wrong.pipe(parseStructuredOutput({ type: 'json', schema }))).toBe(
        '-#',
        {},
        expect.objectContaining({
          code: 'structured_output',
          text: '{"a":"x"}',
          issues: [expect.objectContaining({ path: ['a'] })],
        }),
      );
    });
  });

  it('leaves a turn that called tools, and a stream without responseFormat, unchanged', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const call = completed('', { toolCalls: [{ id: 'c', name: 't', arguments: {} }] });
      const src = cold<StreamEvent>('-c|', { c: call });
      expectObservable(src.pipe(parseStructuredOutput({ type: 'json', schema }))).toBe('-c|', { c: call });
      const plain = cold<StreamEvent>('-c|', { c: completed('not json') });
      expectObservable(plain.pipe(parseStructuredOutput(undefined))).toBe('-c|', {
        c: completed('not json'),
      });
    });
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<StreamEvent>('-d-d-c|', { d: delta, c: completed('{"a":1}') });
      expectObservable(src.pipe(parseStructuredOutput({ type: 'json', schema })), '--!').toBe('-d', {
        d: delta,
      });
      expectSubscriptions(src.subscriptions).toBe('^-!');
    });
  });

  it('waits for an asynchronous validator', async () => {
    const asyncSchema: StandardSchemaV1<unknown, { ok: true }> = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) =>
          value === true ? { value: { ok: true } } : { issues: [{ message: 'not true' }] },
      },
    };
    const { lastValueFrom, of } = await import('rxjs');
    const good = await lastValueFrom(
      of<StreamEvent>(completed('true')).pipe(parseStructuredOutput({ type: 'json', schema: asyncSchema })),
    );
    expect(good.type === 'stream-completed' && good.response.object).toEqual({ ok: true });
    const bad = lastValueFrom(
      of<StreamEvent>(completed('false')).pipe(parseStructuredOutput({ type: 'json', schema: asyncSchema })),
    );
    await expect(bad).rejects.toBeInstanceOf(StructuredOutputError);
    const valibot = await lastValueFrom(
      of<StreamEvent>(completed('{"n":"x"}')).pipe(
        parseStructuredOutput({ type: 'json', schema: v.object({ n: v.string() }) }),
      ),
    );
    expect(valibot.type === 'stream-completed' && valibot.response.object).toEqual({ n: 'x' });
  });
});
