// Review 2 of 88fd86f: decodeSSE gave eventsource-parser an `onError` for its cap, and the parser
// then builds a ParseError (an Error with its stack trace) for every unknown-field line: a server
// sending `x\n` lines held the event loop ~130 times longer per byte (1 MiB: ~2.5 s, before 0.02 s).
// Real servers on 127.0.0.1.
import { lastValueFrom, Observable, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamLimitError } from '../../src/index.ts';
import { decodeSSE } from '../../src/operators/decode-sse.ts';
import { openaiCompatible } from '../../src/providers/openai/index.ts';
import { type Listening, listen } from '../http/support/listen.ts';

const servers: Listening[] = [];
afterEach(() => Promise.all(servers.splice(0).map((server) => server.close())));

/** A server that writes `pieces` in order, then ends the response. */
async function serve(pieces: readonly string[]): Promise<string> {
  const server = await listen((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const piece of pieces) res.write(piece);
    res.end();
  });
  servers.push(server);
  return server.url;
}

/** A response body as byte chunks, read with the platform's fetch. */
function body(url: string): Observable<Uint8Array> {
  return new Observable((subscriber) => {
    const controller = new AbortController();
    void (async () => {
      const response = await fetch(url, { signal: controller.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        subscriber.next(value);
      }
      subscriber.complete();
    })().catch((error: unknown) => subscriber.error(error));
    return () => controller.abort();
  });
}

describe('SSE lines that are no field (regressions)', () => {
  it('1 MiB of unknown-field lines before the reply costs milliseconds, not seconds', async () => {
    const junk = 'x\n'.repeat(32 * 1024);
    const reply =
      'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    const url = await serve([...Array.from({ length: 16 }, () => junk), reply]);
    const model = openaiCompatible('m', { baseURL: url, apiKey: 'k', retry: false });
    const started = performance.now();
    const response = await model.complete({ messages: 'hi' });
    expect(response.text).toBe('ok');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('an event past the cap in the last chunk is still a StreamLimitError', async () => {
    // Unended: a whole event within one chunk is not held, so not capped (memory is that chunk's).
    const url = await serve(['data: a\n\n', `data: ${'d'.repeat(200)}`]);
    const error = await lastValueFrom(body(url).pipe(decodeSSE({ maxEventBytes: 100 }), toArray())).catch(
      (caught: unknown) => caught,
    );
    expect(StreamLimitError.is(error)).toBe(true);
    expect(error).toMatchObject({ limitBytes: 100 });
  });

  it('a comment or retry line past the cap, and one within it still reported', async () => {
    const comments: string[] = [];
    const retries: number[] = [];
    const url = await serve([': hi\nretry: 5\nx: y\ndata: a\n\n', `: ${'c'.repeat(200)}`]);
    const error = await lastValueFrom(
      body(url).pipe(
        decodeSSE({
          maxEventBytes: 100,
          onComment: (c) => comments.push(c),
          onRetry: (r) => retries.push(r),
        }),
        toArray(),
      ),
    ).catch((caught: unknown) => caught);
    expect(StreamLimitError.is(error)).toBe(true);
    expect(comments).toEqual(['hi']);
    expect(retries).toEqual([5]);
  });
});
