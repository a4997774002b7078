import { lastValueFrom, tap, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  IncompleteStreamError,
  NetworkError,
  ReplayExpiredError,
  RunFailedError,
  RunNotFoundError,
  StreamParseError,
} from '../../src/core/index.ts';
import { fromSSE } from '../../src/http/index.ts';
import { settle } from '../support/settle.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';
import { until } from './support/listen.ts';

const frame = (id: number, text: string) =>
  `id: r1:${id}\ndata: ${JSON.stringify({ type: 'text-delta', text })}\n\n`;
const END = 'event: end\ndata: {}\n\n';
const servers = useTranscriptServer();

describe('fromSSE', () => {
  it('emits the events of the stream and completes at event: end, ignoring comments', async () => {
    const server = await servers.start([{ chunks: [': ping\n\n', frame(1, 'Hel'), frame(2, 'lo'), END] }]);
    const events = await lastValueFrom(fromSSE(`${server.url}/runs/r1`).pipe(toArray()));
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it('reads a Response already fetched (a POST), resuming at the response URL', async () => {
    const server = await servers.start((request) =>
      request.method === 'POST'
        ? { chunks: ['retry: 10\n\n', frame(1, 'a'), ''], delayMs: 20, cut: true }
        : { chunks: [frame(2, 'b'), END] },
    );
    const response = await fetch(`${server.url}/chat`, { method: 'POST', body: '{"message":"hi"}' });
    const events = await lastValueFrom(fromSSE(response).pipe(toArray()));
    expect(events.map((event) => (event.type === 'text-delta' ? event.text : ''))).toEqual(['a', 'b']);
    expect(server.requests.map((r) => [r.method, r.url, r.headers['last-event-id'], r.body])).toEqual([
      ['POST', '/chat', undefined, '{"message":"hi"}'],
      ['GET', '/chat', 'r1:1', ''],
    ]);
  });

  it('reconnects after a drop with Last-Event-ID to resumeUrl, waiting the server retry: time', async () => {
    const server = await servers.start([
      { chunks: ['retry: 300\n\n', frame(1, 'a'), frame(2, 'b'), ''], delayMs: 10, cut: true },
      { chunks: [frame(3, 'c'), ''], delayMs: 10, cut: true },
      { chunks: [frame(4, 'd'), END] },
    ]);
    const started = Date.now();
    const events = await lastValueFrom(
      fromSSE(`${server.url}/chat`, {
        method: 'POST',
        body: '{}',
        headers: { authorization: 'Bearer t' },
        resumeUrl: `${server.url}/resume`,
        retryMs: 5,
      }).pipe(toArray()),
    );
    expect(events.map((event) => (event.type === 'text-delta' ? event.text : ''))).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 300 - 20);
    const resumed = server.requests.slice(1);
    expect(
      resumed.map((r) => [r.method, r.url, r.headers['last-event-id'], r.headers.authorization]),
    ).toEqual([
      ['GET', '/resume', 'r1:2', 'Bearer t'],
      ['GET', '/resume', 'r1:3', 'Bearer t'],
    ]);
  });

  it('gives up after maxReconnects drops in a row', async () => {
    const server = await servers.start([
      { chunks: [frame(1, 'a'), ''], delayMs: 10, cut: true },
      { chunks: [': ping\n\n', ''], delayMs: 10, cut: true },
    ]);
    const { events, error } = await settle(
      fromSSE(`${server.url}/runs/r1`, { maxReconnects: 2, retryMs: 1 }),
    );
    // A cut connection is a read error (NetworkError) or an early end (IncompleteStreamError).
    expect(NetworkError.is(error) || IncompleteStreamError.is(error)).toBe(true);
    // The first connection, then two reconnections without a new event.
    expect(server.requests.map((r) => r.headers['last-event-id'])).toEqual([undefined, 'r1:1', 'r1:1']);
    expect(events).toHaveLength(1);
  });

  it('does not send a POST again when the connection drops before any event id', async () => {
    const server = await servers.start([{ chunks: [': ping\n\n', ''], delayMs: 10, cut: true }]);
    const { error } = await settle(fromSSE(`${server.url}/chat`, { method: 'POST', body: '{}', retryMs: 1 }));
    expect(NetworkError.is(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('does not reconnect where it cannot resume: a POST cut before its first id, a stream without ids', async () => {
    // A retry wait of a minute: anything but giving up at once times the test out.
    const post = await servers.start([{ chunks: [': ping\n\n', ''], delayMs: 10, cut: true }]);
    const cutPost = await settle(
      fromSSE(`${post.url}/chat`, { method: 'POST', body: '{}', retryMs: 60_000 }),
    );
    expect(NetworkError.is(cutPost.error)).toBe(true);
    // Events without ids: a GET sent again would start over and repeat them.
    const bare = `data: ${JSON.stringify({ type: 'text-delta', text: 'a' })}\n\n`;
    const get = await servers.start([
      { chunks: [bare, ''], delayMs: 10, cut: true },
      { chunks: [bare, END] },
    ]);
    const cutGet = await settle(fromSSE(`${get.url}/stream`, { retryMs: 1 }));
    expect(cutGet.events).toEqual([{ type: 'text-delta', text: 'a' }]);
    expect(NetworkError.is(cutGet.error)).toBe(true);
    expect(get.requests).toHaveLength(1);
  });

  it('turns the server answers for unknown and expired runs into typed errors, without retrying', async () => {
    const server = await servers.start([
      {
        status: 404,
        headers: { 'content-type': 'application/json' },
        chunks: [
          '{"error":{"name":"RunNotFoundError","code":"run_not_found","message":"No run r1","runId":"r1"}}',
        ],
      },
      {
        status: 410,
        chunks: [
          '{"error":{"name":"ReplayExpiredError","code":"replay_expired","message":"gone","runId":"r1","lastEventId":"r1:3"}}',
        ],
      },
      { status: 500, chunks: ['{"error":{"message":"oops"}}'] },
    ]);
    const notFound = await settle(fromSSE(`${server.url}/runs/r1`));
    expect(notFound.error).toBeInstanceOf(RunNotFoundError);
    expect(notFound.error).toMatchObject({ runId: 'r1' });
    const expired = await settle(fromSSE(`${server.url}/runs/r1`));
    expect(expired.error).toBeInstanceOf(ReplayExpiredError);
    expect(expired.error).toMatchObject({ runId: 'r1', lastEventId: 'r1:3' });
    const failed = await settle(fromSSE(`${server.url}/runs/r1`));
    expect(ApiError.is(failed.error) && failed.error.status).toBe(500);
    expect(server.requests).toHaveLength(3);
  });

  it('errors with RunFailedError at event: error, and with StreamParseError for a frame that is not an event', async () => {
    const server = await servers.start([
      {
        chunks: [
          frame(1, 'a'),
          'event: error\ndata: {"name":"MaxStepsError","code":"max_steps","message":"Too many steps"}\n\n',
        ],
      },
      { chunks: ['data: [DONE]\n\n'] },
    ]);
    const failed = await settle(fromSSE(`${server.url}/runs/r1`));
    expect(failed.events).toHaveLength(1);
    expect(failed.error).toBeInstanceOf(RunFailedError);
    expect(failed.error).toMatchObject({
      remoteName: 'MaxStepsError',
      remoteCode: 'max_steps',
      message: 'Too many steps',
    });
    const garbled = await settle(fromSSE(`${server.url}/runs/r1`));
    expect(garbled.error).toBeInstanceOf(StreamParseError);
  });

  it('aborts the request when unsubscribed', async () => {
    const server = await servers.start([{ chunks: [frame(1, 'a')], hold: true }]);
    const aborted = server.nextClientAbort();
    const seen: unknown[] = [];
    const subscription = fromSSE(`${server.url}/runs/r1`).subscribe((event) => seen.push(event));
    await until(() => seen.length === 1);
    subscription.unsubscribe();
    await aborted;
    expect(server.clientAborts).toBe(1);
  });

  it('stops at once when the caller aborts its signal: the reason, no reconnection', async () => {
    const server = await servers.start([{ chunks: [frame(1, 'a')], hold: true }]);
    const aborted = server.nextClientAbort();
    const controller = new AbortController();
    const reason = new Error('user left');
    const seen: unknown[] = [];
    const settled = settle(
      fromSSE(`${server.url}/runs/r1`, { signal: controller.signal, retryMs: 60_000 }).pipe(
        tap((event) => seen.push(event)),
      ),
    );
    await until(() => seen.length === 1);
    controller.abort(reason);
    // With a retry wait of a minute, anything but an immediate end times the test out.
    expect((await settled).error).toBe(reason);
    await aborted;
    expect(server.requests).toHaveLength(1);
  });

  it('completes without event: end once the run has sent agent-completed', async () => {
    const completed = {
      type: 'agent-completed',
      result: {
        text: 'a',
        messages: [],
        steps: [],
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        finishReason: 'stop',
      },
    };
    const server = await servers.start([
      { chunks: [frame(1, 'a'), `data: ${JSON.stringify(completed)}\n\n`] },
    ]);
    const events = await lastValueFrom(fromSSE(`${server.url}/x`).pipe(toArray()));
    expect(events.map((event) => event.type)).toEqual(['text-delta', 'agent-completed']);
    expect(server.requests).toHaveLength(1);
  });
});
