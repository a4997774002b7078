import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { computeCost, priceOf, type StreamEvent, TimeoutError, user } from '../../../src/index.ts';
import { openai } from '../../../src/providers/openai/index.ts';
import { settle } from '../../support/settle.ts';
import { randomSplit } from '../../support/split.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { fixture, textOf } from './helpers.ts';

const servers = useTranscriptServer();

const model = (options: Parameters<typeof openai>[1] = {}) =>
  openai('gpt-4o-mini', { baseURL: `${servers.url}/v1`, apiKey: 'sk-test', retry: false, ...options });
const GREETING = 'Hello! How can I help you today?';

describe('openai streaming', () => {
  it('200 concurrent streams, each split differently, all complete correctly', async () => {
    const server = await servers.start((_request, index) => ({
      chunks: randomSplit(fixture(index % 2 === 0 ? 'text.sse' : 'parallel-tool-calls.sse'), index + 1, 64),
      delayMs: 1,
    }));
    const m = model();
    const responses = await Promise.all(Array.from({ length: 200 }, () => m.complete({ messages: 'hi' })));
    expect(server.requests).toHaveLength(200);
    const texts = responses.filter((r) => r.text === GREETING && r.finishReason === 'stop');
    const calls = responses.filter((r) => r.toolCalls.length === 2 && r.finishReason === 'tool-calls');
    expect(texts.length).toBe(100);
    expect(calls.length).toBe(100);
  });

  it('unsubscribing closes the server-side connection within a few hundred ms', async () => {
    const bytes = new TextEncoder().encode(fixture('text.sse'));
    const server = await servers.start([{ chunks: [bytes.subarray(0, 900)], hold: true }]);
    const aborted = server.nextClientAbort();
    const first = await firstValueFrom(model().stream({ messages: 'hi' }));
    const unsubscribedAt = performance.now();
    expect(first).toEqual({ type: 'text-delta', text: 'Hello' });
    await aborted;
    expect(performance.now() - unsubscribedAt).toBeLessThan(300);
    expect(server.clientAborts).toBe(1);
  });

  it('unsubscribing one of two streams leaves the other running', async () => {
    const bytes = new TextEncoder().encode(fixture('text.sse'));
    const server = await servers.start((_request, index) =>
      index === 0
        ? { chunks: [bytes.subarray(0, 900)], hold: true }
        : { chunks: randomSplit(fixture('text.sse'), 9, 200), delayMs: 5 },
    );
    const m = model();
    const aborted = server.nextClientAbort();
    const held = m.stream({ messages: 'hi' }).pipe(take(1)).subscribe();
    const other = m.complete({ messages: 'hi' });
    await aborted;
    expect(held.closed).toBe(true);
    expect((await other).text).toBe(GREETING);
    expect(server.clientAborts).toBe(1);
  });

  it('emitToolCallDeltas (call option): the fragments, then tool-calls-ready; not sent on the wire', async () => {
    const server = await servers.start([{ chunks: randomSplit(fixture('tool-call.sse'), 5) }]);
    const events = await lastValueFrom(
      model().stream({ messages: 'hi' }, { emitToolCallDeltas: true }).pipe(toArray()),
    );
    const deltas = events.filter((e) => e.type === 'tool-call-delta');
    expect(deltas[0]).toEqual({
      type: 'tool-call-delta',
      index: 0,
      id: 'call_1',
      name: 'get_weather',
      argumentsDelta: '',
    });
    expect(deltas.map((d) => d.argumentsDelta).join('')).toBe('{"city":"Paris"}');
    expect(deltas).toHaveLength(6);
    expect(events.map((e) => e.type).slice(-2)).toEqual(['tool-calls-ready', 'stream-completed']);
    const body = server.requests[0]?.json as Record<string, unknown>;
    expect(body).not.toHaveProperty('emitToolCallDeltas');
  });

  it('emitToolCallDeltas (model option) and its per-call override', async () => {
    await servers.start([{ chunks: [fixture('tool-call.sse')] }]);
    const m = model({ emitToolCallDeltas: true });
    const count = (events: StreamEvent[]) => events.filter((e) => e.type === 'tool-call-delta').length;
    expect(count(await lastValueFrom(m.stream({ messages: 'hi' }).pipe(toArray())))).toBe(6);
    const off = m.stream({ messages: 'hi' }, { emitToolCallDeltas: false });
    expect(count(await lastValueFrom(off.pipe(toArray())))).toBe(0);
  });

  it('complete(): usage, cost for a priced model, finish reasons and timing', async () => {
    await servers.start([{ chunks: randomSplit(fixture('text.sse'), 8, 300), delayMs: 15 }]);
    const started = performance.now();
    const response = await model().complete({ messages: [user('hi')] });
    const elapsed = performance.now() - started;
    expect(response).toMatchObject({ text: GREETING, finishReason: 'stop', rawFinishReason: 'stop' });
    expect(response.usage).toMatchObject({ inputTokens: 12, outputTokens: 9, totalTokens: 21 });
    const price = priceOf('gpt-4o-mini');
    expect(price).toBeDefined();
    if (response.usage === undefined || price === undefined) throw new Error('usage and price are known');
    expect(response.cost).toEqual(computeCost(response.usage, price));
    expect(response.cost?.totalUsd).toBeGreaterThan(0);
    const { firstTokenMs, totalMs } = response.timing;
    expect(firstTokenMs).toBeGreaterThanOrEqual(10);
    expect(totalMs).toBeGreaterThan(firstTokenMs ?? 0);
    expect(totalMs).toBeLessThanOrEqual(elapsed + 1);
  });

  it('an explicit price overrides the table', async () => {
    await servers.start([{ chunks: [fixture('text.sse')] }]);
    const response = await model({ price: { inputPerMTok: 1_000_000, outputPerMTok: 0 } }).complete({
      messages: 'hi',
    });
    expect(response.cost).toEqual({ inputUsd: 12, outputUsd: 0, totalUsd: 12 });
  });

  it('timeoutMs: a stalled stream errors with TimeoutError and closes the connection', async () => {
    const bytes = new TextEncoder().encode(fixture('text.sse'));
    const server = await servers.start([{ chunks: [bytes.subarray(0, 900)], hold: true }]);
    const aborted = server.nextClientAbort();
    const { events, error } = await settle(model({ timeoutMs: 100 }).stream({ messages: 'hi' }));
    expect(textOf(events)).toBe('Hello!');
    expect(TimeoutError.is(error)).toBe(true);
    await aborted;
  });

  it('timeoutMs reads no clock per chunk: 400 one-event chunks, far fewer Date.now calls', async () => {
    const event = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const chunks = [
      ...Array.from({ length: 400 }, () => event({ content: 'x' })),
      event({}, 'stop'),
      'data: [DONE]\n\n',
    ];
    // 1 ms apart, so each event is its own read (written at once, they arrive in one).
    await servers.start([{ chunks, delayMs: 1 }]);
    const reads = vi.spyOn(Date, 'now');
    try {
      const response = await model({ timeoutMs: 60_000 }).complete({ messages: 'hi' });
      expect(response.text).toBe('x'.repeat(400));
      // The exact idle timeout read the clock once per chunk: about one call per event.
      expect(reads.mock.calls.length).toBeLessThan(100);
    } finally {
      reads.mockRestore();
    }
  });

  it('a timeoutMs beyond what a platform timer holds (2³¹ ms, 25 days) waits, not 1 ms', async () => {
    // Node runs a longer setTimeout after 1 ms: the wait for the first byte timed out at once.
    await servers.start([{ chunks: [fixture('text.sse')], delayMs: 30 }]);
    const response = await model({ timeoutMs: 2 ** 32 }).complete({ messages: 'hi' });
    expect(response.text).toBe(GREETING);
  });

  it('sends the mapped body with stream options and a bearer key', async () => {
    const server = await servers.start([{ chunks: [fixture('text.sse')] }]);
    await model().complete({ messages: 'hi', system: 'Be brief.', maxOutputTokens: 64, temperature: 0 });
    const request = server.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.json).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0,
      max_completion_tokens: 64,
      stream_options: { include_usage: true },
      stream: true,
    });
  });

  it('is cold: nothing is sent before subscription, one request per subscription', async () => {
    const server = await servers.start([{ chunks: [fixture('text.sse')] }]);
    const events$ = model().stream({ messages: 'hi' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.requests).toHaveLength(0);
    await lastValueFrom(events$);
    await lastValueFrom(events$);
    expect(server.requests).toHaveLength(2);
  });
});
