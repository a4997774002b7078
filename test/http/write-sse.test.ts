import { connect } from 'node:net';
import { finalize, from, interval, map, NEVER, of, Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { SlowConsumerError } from '../../src/core/index.ts';
import { fromSSE, RunRegistry, toSSEResponse, writeSSE } from '../../src/http/index.ts';
import { settle } from '../support/settle.ts';
import { type Listening, listen, until } from './support/listen.ts';

const delta = (text: string): AgentEvent => ({ type: 'text-delta', text });
const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('writeSSE', () => {
  it('writes each SequencedEvent as id: and data:, with the SSE headers, then event: end', async () => {
    const server = await listen((_req, res) => {
      writeSSE(of({ id: 'r1:1', event: delta('Hi') }, { id: 'r1:2', event: delta('!') }), res, {
        headers: { 'x-run-id': 'r1', 'content-type': 'text/plain' },
      });
    });
    servers.push(server);
    const response = await fetch(server.url);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('x-run-id')).toBe('r1');
    expect(await response.text()).toBe(
      'id: r1:1\ndata: {"type":"text-delta","text":"Hi"}\n\n' +
        'id: r1:2\ndata: {"type":"text-delta","text":"!"}\n\n' +
        'event: end\ndata: {}\n\n',
    );
  });

  it('sends comment heartbeats while the source is idle', async () => {
    const server = await listen((_req, res) => writeSSE(NEVER, res, { heartbeatMs: 20 }));
    servers.push(server);
    const controller = new AbortController();
    const response = await fetch(server.url, { signal: controller.signal });
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes(': ping\n\n: ping\n\n'))
      text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toBe(': ping\n\n'.repeat(text.length / 8));
  });

  it('unsubscribes from the source when the client disconnects', async () => {
    let unsubscribed = false;
    const source = new Subject<AgentEvent>();
    const server = await listen((_req, res) => {
      writeSSE(source.pipe(finalize(() => (unsubscribed = true))), res);
      source.next(delta('a'));
    });
    servers.push(server);
    const controller = new AbortController();
    const response = await fetch(server.url, { signal: controller.signal });
    await response.body!.getReader().read();
    controller.abort();
    await until(() => unsubscribed);
    expect(source.observed).toBe(false);
  });

  it('cuts off a client that does not read, with SlowConsumerError, instead of buffering without bound', async () => {
    const errors: unknown[] = [];
    let unsubscribed = false;
    const big = 'x'.repeat(64 * 1024);
    const server = await listen((_req, res) => {
      writeSSE(
        interval(1).pipe(
          map(() => delta(big)),
          finalize(() => (unsubscribed = true)),
        ),
        res,
        { maxBufferedBytes: 512 * 1024, maxReplayBytes: 512 * 1024, onError: (error) => errors.push(error) },
      );
    });
    servers.push(server);
    const { port } = new URL(server.url);
    // A client that sends a request and never reads the answer.
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(`GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
    socket.pause();
    await until(() => errors.length > 0, 15_000);
    socket.destroy();
    expect(errors[0]).toBeInstanceOf(SlowConsumerError);
    expect(errors[0]).toMatchObject({ limitBytes: 512 * 1024 });
    expect(unsubscribed).toBe(true);
  });
});

describe('writeSSE with a RunRegistry replay', () => {
  it('sends a resumed client a replay larger than maxBufferedBytes (written at once) in full', async () => {
    const runs = new RunRegistry({ createId: () => 'long' });
    const text = 'x'.repeat(150);
    // About 1.9 MB of frames, replayed synchronously when the client attaches.
    runs.start(from(Array.from({ length: 10_000 }, (): AgentEvent => delta(text))));
    const errors: unknown[] = [];
    const server = await listen((_req, res) => {
      writeSSE(runs.attach('long'), res, { onError: (error) => errors.push(error) });
    });
    servers.push(server);
    const { events, error } = await settle(fromSSE(server.url, { maxReconnects: 0 }));
    expect([errors.map(String), String(error), events.length]).toEqual([[], 'undefined', 10_000]);
  }, 60_000);

  it('toSSEResponse sends it in full too', async () => {
    const runs = new RunRegistry({ createId: () => 'long' });
    const text = 'x'.repeat(150);
    runs.start(from(Array.from({ length: 10_000 }, (): AgentEvent => delta(text))));
    const { events, error } = await settle(fromSSE(toSSEResponse(runs.attach('long')), { maxReconnects: 0 }));
    expect([String(error), events.length]).toEqual(['undefined', 10_000]);
  }, 60_000);
});

describe('toSSEResponse', () => {
  it('is a text/event-stream Response of the frames, with the caller status and headers', async () => {
    const response = toSSEResponse(of({ id: 'r1:1', event: delta('Hi') }), {
      status: 201,
      headers: { 'x-run-id': 'r1', 'cache-control': 'max-age=60' },
      retryMs: 500,
    });
    expect(response.status).toBe(201);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-run-id': 'r1',
    });
    expect(await response.text()).toBe(
      'retry: 500\n\nid: r1:1\ndata: {"type":"text-delta","text":"Hi"}\n\nevent: end\ndata: {}\n\n',
    );
  });

  it('unsubscribes when the body is cancelled (the client went away)', async () => {
    let unsubscribed = false;
    const source = new Subject<AgentEvent>();
    const response = toSSEResponse(source.pipe(finalize(() => (unsubscribed = true))));
    const reader = response.body!.getReader();
    source.next(delta('a'));
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"text":"a"');
    await reader.cancel();
    expect(unsubscribed).toBe(true);
    expect(source.observed).toBe(false);
  });

  it('errors the body with SlowConsumerError when more than maxBufferedBytes wait unread', async () => {
    let unsubscribed = false;
    const source = new Subject<AgentEvent>();
    const response = toSSEResponse(source.pipe(finalize(() => (unsubscribed = true))), {
      maxBufferedBytes: 1000,
      maxReplayBytes: 1000,
    });
    for (let i = 0; i < 20; i++) source.next(delta('y'.repeat(100)));
    expect(unsubscribed).toBe(true);
    await expect(response.text()).rejects.toBeInstanceOf(SlowConsumerError);
  });

  it('serves a fetch-style handler on a real server', async () => {
    const server = await listen(async (_req, res) => {
      const response = toSSEResponse(of(delta('one'), delta('two')));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      const reader = response.body!.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
      res.end();
    });
    servers.push(server);
    expect(await (await fetch(server.url)).text()).toBe(
      'data: {"type":"text-delta","text":"one"}\n\ndata: {"type":"text-delta","text":"two"}\n\nevent: end\ndata: {}\n\n',
    );
  });
});
