import { once } from 'node:events';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { map, range, tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agent-event.ts';
import {
  type ChatRunner,
  chatHandler,
  RunRegistry,
  type Runs,
  resumableEvents,
} from '../../../src/http/index.ts';
import { type Listening, listen, until } from '../support/listen.ts';

const servers: Listening[] = [];
const registries: RunRegistry[] = [];
afterEach(async () => {
  for (const runs of registries.splice(0)) runs.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const EVENTS = 5_000;
const text = 'x'.repeat(2_000);

describe('chatHandler and a client that does not read (review r17b)', () => {
  it('reads the run only as fast as the useChat response body is read: a client that does not read makes the server hold about pauseBytes', async () => {
    const registry = new RunRegistry();
    registries.push(registry);
    let read = 0; // events the response read from the registry
    const runs: Runs = {
      attach: (runId, options = {}) =>
        resumableEvents((after) =>
          registry
            .attach(runId, { ...options, lastEventId: after ?? options.lastEventId })
            .pipe(tap(() => (read += 1))),
        ),
      decide: (...args) => registry.decide(...args),
      cancel: (...args) => registry.cancel(...args),
      status: (...args) => registry.status(...args),
    };
    const runner: ChatRunner = {
      runs,
      start: () =>
        registry.start(range(1, EVENTS).pipe(map((): AgentEvent => ({ type: 'text-delta', text })))).id,
    };
    const handler = chatHandler(runner);
    let sent = () => 0;
    const server = await listen((req, res) => {
      sent = () => req.socket.bytesWritten;
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = new Request(`http://127.0.0.1${req.url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks).toString('utf8'),
        });
        void handler(request).then((response) => {
          res.writeHead(response.status, Object.fromEntries(response.headers));
          Readable.fromWeb(response.body as NodeReadableStream).pipe(res);
        });
      });
    });
    servers.push(server);
    const body = JSON.stringify({
      id: 'chat-slow',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }],
      trigger: 'submit-message',
    });
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.pause();
    socket.write(
      `POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await until(() => read > 0);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const held = read * 2_050 - sent();
    console.log(
      `useChat, a client that does not read: ${read} of ${EVENTS} events read, about ${held} bytes held`,
    );
    expect(held).toBeLessThan(1024 * 1024);
    // Then it reads: every delta, once.
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.resume();
    await once(socket, 'end');
    const deltas =
      Buffer.concat(received)
        .toString('utf8')
        .match(/"type":"text-delta"/g) ?? [];
    expect(deltas).toHaveLength(EVENTS);
    socket.destroy();
  }, 60_000);
});
