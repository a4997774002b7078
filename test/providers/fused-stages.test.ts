import { lastValueFrom, Observable, Subscription, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { type StreamEvent, ToolCallParseError } from '../../src/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

// retry → tool-call accumulation → completion run as plain observers in one subscriber: what the
// separate operators guaranteed must hold on a real stream — one typed error, the connection
// closed, nothing retried after output, nothing left running after the consumer leaves.
const servers = useTranscriptServer();

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const model = (options: Parameters<typeof openai>[1] = {}) =>
  openai('gpt-4o-mini', { baseURL: `${servers.url}/v1`, apiKey: 'sk-test', ...options });

/**
 * Every notification the stream sends, in order, until `settleMs` after it ends (to see that
 * nothing follows), or until 5 s pass; then unsubscribes.
 */
function notifications(stream: Observable<StreamEvent>, settleMs = 150) {
  const seen: string[] = [];
  let error: unknown;
  let errorAt = 0;
  return new Promise<{ seen: string[]; error: unknown; errorAt: number }>((resolve) => {
    const subscription = new Subscription();
    const stop = () => {
      subscription.unsubscribe();
      resolve({ seen, error, errorAt });
    };
    const bound = setTimeout(stop, 5000);
    const settle = () => {
      clearTimeout(bound);
      setTimeout(stop, settleMs);
    };
    subscription.add(
      stream.subscribe({
        next: (event) => seen.push(event.type),
        error: (e: unknown) => {
          seen.push('error');
          error = e;
          errorAt = performance.now();
          settle();
        },
        complete: () => {
          seen.push('complete');
          settle();
        },
      }),
    );
  });
}

describe('the fused provider stages', () => {
  it('a tool call with no name: one ToolCallParseError, the connection closed, nothing after', async () => {
    const server = await servers.start([
      {
        chunks: [
          chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { arguments: '{"a":1}' } }] }),
          chunk({}, 'tool_calls'),
          'data: [DONE]\n\n',
          chunk({ content: 'late' }),
        ],
        delayMs: 5,
        hold: true,
      },
    ]);
    const aborted = server.nextClientAbort();
    const { seen, error } = await notifications(model({ timeoutMs: 150 }).stream({ messages: 'hi' }));
    expect(seen).toEqual(['error']);
    expect(ToolCallParseError.is(error)).toBe(true);
    await aborted;
    expect(server.requests).toHaveLength(1);
  });

  it('a cut after tool-call fragments (nothing shown yet) is not retried: output was produced', async () => {
    const server = await servers.start([
      {
        // The second write waits, so the first is read before the connection is cut.
        chunks: [
          chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{"a"' } }] }),
          ': ping\n\n',
        ],
        delayMs: 30,
        cut: true,
      },
    ]);
    const { seen, error } = await notifications(
      model({ retry: { maxRetries: 3, initialDelayMs: 1 } }).stream({ messages: 'hi' }),
    );
    expect(seen).toEqual(['error']);
    expect(error).toBeInstanceOf(Error);
    expect(server.requests).toHaveLength(1);
  });

  it('a cut before any event is retried, and the retry answers', async () => {
    const server = await servers.start((_request, index) =>
      index === 0
        ? { chunks: [': keep-alive\n\n'], cut: true }
        : { chunks: [chunk({ content: 'hi' }), chunk({}, 'stop'), 'data: [DONE]\n\n'] },
    );
    const events = await lastValueFrom(
      model({ retry: { maxRetries: 2, initialDelayMs: 1 } })
        .stream({ messages: 'hi' })
        .pipe(toArray()),
    );
    expect(events.map((event) => event.type)).toEqual(['text-delta', 'stream-completed']);
    expect(server.requests).toHaveLength(2);
  });

  it('a consumer that leaves inside next (at tool-calls-ready) closes the connection; no timeout fires later', async () => {
    const server = await servers.start([
      {
        chunks: [
          chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{}' } }] }),
          chunk({}, 'tool_calls'),
        ],
        hold: true,
      },
    ]);
    const aborted = server.nextClientAbort();
    const { seen } = await notifications(
      model({ timeoutMs: 100, retry: false }).stream({ messages: 'hi' }).pipe(take(1)),
      300,
    );
    expect(seen).toEqual(['tool-calls-ready', 'complete']);
    await aborted;
    expect(server.requests).toHaveLength(1);
  });

  it('silence right after a chunk: TimeoutError after at least timeoutMs of it', async () => {
    await servers.start([{ chunks: [chunk({ content: 'a' })], hold: true }]);
    let firstAt = 0;
    const stream = model({ timeoutMs: 200, retry: false }).stream({ messages: 'hi' });
    const { seen, error, errorAt } = await notifications(
      new Observable<StreamEvent>((subscriber) =>
        stream.subscribe({
          next: (event) => {
            firstAt ||= performance.now();
            subscriber.next(event);
          },
          error: (e: unknown) => subscriber.error(e),
          complete: () => subscriber.complete(),
        }),
      ),
    );
    expect(seen).toEqual(['text-delta', 'error']);
    expect(error).toMatchObject({ name: 'TimeoutError' });
    // At least timeoutMs (a millisecond of platform timer rounding aside), and a tenth more at most
    // when the machine is idle; the upper bound here leaves room for a loaded test machine.
    expect(errorAt - firstAt).toBeGreaterThanOrEqual(199);
    expect(errorAt - firstAt).toBeLessThan(1000);
  });
});
