import { once } from 'node:events';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { tap } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.ts';
import { agUiHandler } from '../../src/ag-ui/index.ts';
import { memoryRunEventStore, RunRegistry, type SequencedEvent } from '../../src/http/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { type Listening, listen, until } from './support/listen.ts';

/** A registry that counts the events its readers took (what a server holds for a slow client). */
class CountingRegistry extends RunRegistry {
  read = 0;
  override attach(...args: Parameters<RunRegistry['attach']>): ReturnType<RunRegistry['attach']> {
    const inner = super.attach(...args);
    const count = tap<SequencedEvent>(() => (this.read += 1));
    return Object.assign(inner.pipe(count), {
      resumeAfter: (lastEventId: string) => inner.resumeAfter(lastEventId).pipe(count),
      ...(inner.watching ? { watching: inner.watching } : {}),
    });
  }
}

const servers: Listening[] = [];
const registries: RunRegistry[] = [];
afterEach(async () => {
  for (const runs of registries.splice(0)) runs.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const EVENTS = 4_000;

describe('agUiHandler and a client that does not read (review r17b #9)', () => {
  it('reads the run only as fast as the response body is read, then delivers every delta once', async () => {
    // The scripted model answers at once: the whole run (its deltas, then the step's and the run's
    // whole text again) is in the store before anyone reads, so the store keeps all of it.
    const runs = new CountingRegistry({ eventStore: memoryRunEventStore({ maxRunBytes: 64 * 1024 * 1024 }) });
    registries.push(runs);
    const model = scriptedModel([{ text: Array.from({ length: EVENTS }, () => 'x'.repeat(2_000)) }]);
    const handler = agUiHandler(new Agent({ model }), { runs });
    // A server that writes the body as the socket drains (a pipe), as Node's adapters do.
    const server = await listen((req, res) => {
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
      threadId: 't-slow',
      runId: 'r-slow',
      state: {},
      tools: [],
      context: [],
      forwardedProps: {},
      messages: [{ id: 'u', role: 'user', content: 'Hi' }],
    });
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.pause();
    socket.write(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await until(() => runs.read > 0);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // The kernel's socket buffers take a few MB; the server itself holds about pauseBytes more.
    const read = runs.read;
    expect(read).toBeLessThan(EVENTS * 0.75);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.resume();
    await until(() => Buffer.concat(received).includes('RUN_FINISHED'), 30_000);
    const deltas =
      Buffer.concat(received)
        .toString('utf8')
        .match(/"TEXT_MESSAGE_CONTENT"/g) ?? [];
    expect(deltas).toHaveLength(EVENTS);
    socket.destroy();
  }, 60_000);
});
