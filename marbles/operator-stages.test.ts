import { config, defer, from, lastValueFrom, type Observable, Subject, throwError, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  accumulateToolCalls,
  completeResponse,
  NetworkError,
  type ProviderEvent,
  type StreamEvent,
  ToolCallParseError,
} from '../src/index.ts';
import { toolCallStage } from '../src/operators/accumulate-tool-calls.ts';
import { completeStage } from '../src/operators/complete-response.ts';
import { retryWithBackoff, sseDecoder } from '../src/operators/index.ts';
import { openAIChunkMapper } from '../src/providers/openai/map-openai-chunk.ts';
import { decodeChunks } from '../src/providers/shared/index.ts';

const meta = { provider: 'p', model: 'm' };
const strip = (events: StreamEvent[]) =>
  events.map((e) =>
    e.type === 'stream-completed' ? { ...e, response: { ...e.response, timing: undefined } } : e,
  );

const turn = (name: string, args: string, text: string): ProviderEvent[] => [
  { type: 'text-delta', text },
  { type: 'tool-call-delta', index: 0, id: `id-${name}`, name, argumentsDelta: args.slice(0, 3) },
  { type: 'tool-call-delta', index: 0, argumentsDelta: args.slice(3) },
  { type: 'finish', finishReason: 'tool-calls' },
];

describe('the tool-call and completion stages (classes)', () => {
  afterEach(() => {
    config.useDeprecatedNextContext = false;
  });

  it('one operator instance, several subscriptions: fresh state each, also interleaved', async () => {
    const op = (source: Observable<ProviderEvent>) =>
      source.pipe(accumulateToolCalls(), completeResponse(meta));
    const a = new Subject<ProviderEvent>();
    const b = new Subject<ProviderEvent>();
    const shared = accumulateToolCalls<ProviderEvent>();
    const sharedComplete = completeResponse(meta);
    const outA = lastValueFrom(a.pipe(shared, sharedComplete, toArray()));
    const outB = lastValueFrom(b.pipe(shared, sharedComplete, toArray()));
    const ta = turn('f', '{"a":1}', 'A');
    const tb = turn('g', '{"b":2}', 'B');
    for (let i = 0; i < ta.length; i++) {
      a.next(ta[i]!);
      b.next(tb[i]!);
    }
    a.complete();
    b.complete();
    const [ea, eb] = [await outA, await outB];
    const last = (e: StreamEvent[]) => e.at(-1) as Extract<StreamEvent, { type: 'stream-completed' }>;
    expect(last(ea).response.text).toBe('A');
    expect(last(ea).response.toolCalls).toEqual([{ id: 'id-f', name: 'f', arguments: { a: 1 } }]);
    expect(last(eb).response.text).toBe('B');
    expect(last(eb).response.toolCalls).toEqual([{ id: 'id-g', name: 'g', arguments: { b: 2 } }]);
    // and a third, sequential subscription on the same pipeline
    const again = await lastValueFrom(from(ta).pipe(op, toArray()));
    expect(last(again).response.toolCalls).toHaveLength(1);
  });

  it('accumulateToolCalls alone: two turns in one stream give one tool-calls-ready each', async () => {
    const events = await lastValueFrom(
      from([...turn('f', '{"a":1}', 'A'), ...turn('g', '{"b":2}', 'B')]).pipe(
        accumulateToolCalls(),
        toArray(),
      ),
    );
    const ready = events.filter((e) => e.type === 'tool-calls-ready');
    expect(ready).toHaveLength(2);
    expect(ready.map((r) => r.toolCalls.map((c) => c.name))).toEqual([['f'], ['g']]);
  });

  it('a call without a name errors with ToolCallParseError and forwards nothing after', async () => {
    const seen: StreamEvent[] = [];
    const error = await new Promise<unknown>((resolve) =>
      from<ProviderEvent[]>([
        { type: 'tool-call-delta', index: 0, id: 'x', argumentsDelta: '{}' },
        { type: 'finish', finishReason: 'tool-calls' },
        { type: 'text-delta', text: 'late' },
      ])
        .pipe(accumulateToolCalls(), completeResponse(meta))
        .subscribe({ next: (e) => seen.push(e), error: resolve, complete: () => resolve('completed') }),
    );
    expect(ToolCallParseError.is(error)).toBe(true);
    expect(seen).toEqual([]);
  });

  it('works with rxjs config.useDeprecatedNextContext (this is a derived object)', async () => {
    config.useDeprecatedNextContext = true;
    const events = await lastValueFrom(
      from(turn('f', '{"a":1}', 'A')).pipe(accumulateToolCalls(), completeResponse(meta), toArray()),
    );
    expect(strip(events).map((e) => e.type)).toEqual(['text-delta', 'tool-calls-ready', 'stream-completed']);
  });

  it('useDeprecatedNextContext: retries still count across attempts, and give up', async () => {
    config.useDeprecatedNextContext = true;
    let attempts = 0;
    const failing = defer(() => {
      attempts += 1;
      return throwError(() => new NetworkError('ECONNRESET'));
    });
    const error = await lastValueFrom(
      failing.pipe(retryWithBackoff({ maxRetries: 2, initialDelayMs: 1, random: () => 0 })),
    ).catch((e: unknown) => e);
    expect(NetworkError.is(error)).toBe(true);
    expect(attempts).toBe(3);
  });

  it('useDeprecatedNextContext: the chunk observer decodes, maps and completes a stream', async () => {
    config.useDeprecatedNextContext = true;
    const body = [
      'data: {"choices":[{"delta":{"content":"A"}}]}\n\n',
      'data: {"choices":[{"delta":{"content":"B"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    ];
    const events = await lastValueFrom(
      from(body.map((text) => new TextEncoder().encode(text))).pipe(
        decodeChunks(sseDecoder(), openAIChunkMapper('openai')),
        toArray(),
      ),
    );
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'finish']);
  });

  it('the fused stages, as the provider pipeline chains them: same result as the operators', async () => {
    const events: StreamEvent[] = [];
    let completed = false;
    const stages = toolCallStage<ProviderEvent>(
      {},
      completeStage(meta, {
        next: (e) => events.push(e),
        error: (e) => {
          throw e;
        },
        complete: () => (completed = true),
      }),
    );
    for (const e of [...turn('f', '{"a":1}', 'A'), { type: 'text-delta', text: 'ignored' } as ProviderEvent])
      stages.next(e);
    stages.complete();
    expect(completed).toBe(true);
    const done = events.at(-1) as Extract<StreamEvent, { type: 'stream-completed' }>;
    expect(done.response.text).toBe('A');
  });

  it('unsubscribing mid-stream: nothing more is delivered, no error', () => {
    const s = new Subject<ProviderEvent>();
    const seen: StreamEvent[] = [];
    const sub = s.pipe(accumulateToolCalls(), completeResponse(meta)).subscribe({
      next: (e) => seen.push(e),
      error: () => seen.push({ type: 'text-delta', text: 'ERROR' }),
    });
    s.next({ type: 'text-delta', text: 'a' });
    sub.unsubscribe();
    s.next({ type: 'text-delta', text: 'b' });
    s.next({ type: 'finish', finishReason: 'stop' });
    s.complete();
    expect(seen).toEqual([{ type: 'text-delta', text: 'a' }]);
    expect(s.observed).toBe(false);
  });
});
