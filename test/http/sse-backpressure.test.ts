import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { Redis } from 'ioredis';
import { from, lastValueFrom, map, range, tap, toArray } from 'rxjs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { SlowConsumerError } from '../../src/core/index.ts';
import { fromSSE, RunRegistry, resumableEvents, toSSEResponse } from '../../src/http/index.ts';
import { type RedisRunEventStore, redisRunEventStore } from '../../src/stores/redis/index.ts';
import { type Listening, listen, until } from './support/listen.ts';
import { serveSSE, stalledClient } from './support/sse-clients.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:backpressure:${process.pid}:${Date.now()}:`;
const admin = new Redis(url);
const stores: RedisRunEventStore[] = [];
const registries: RunRegistry[] = [];
const servers: Listening[] = [];
afterEach(async () => {
  for (const runs of registries.splice(0)) runs.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

const EVENTS = 10_000;
const text = 'x'.repeat(2_000);

/** A registry on a Redis store that keeps the whole run, closed after the test. */
function registryOf(): RunRegistry {
  const store = redisRunEventStore({ url, prefix, replayLimit: EVENTS });
  stores.push(store);
  const runs = new RunRegistry({ eventStore: store });
  registries.push(runs);
  return runs;
}

/** The id of a run of `EVENTS` events of 2 kB (20 MB) that `runs` ran to the end. */
async function ran(runs: RunRegistry): Promise<string> {
  const { id } = runs.start(
    from(range(1, EVENTS).pipe(map((): AgentEvent => ({ type: 'text-delta', text })))),
  );
  await until(() => runs.statusHere(id) === 'completed');
  return id;
}

/** {@link ran} on `a`, once `b` knows it. */
async function ranOnAKnownToB(a: RunRegistry, b: RunRegistry): Promise<string> {
  const id = await ran(a);
  // A's writes reach Redis on A's own connection: B knows the run once its state is there.
  for (let tries = 0; (await b.status(id)) === null && tries < 500; tries++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return id;
}

describe('writeSSE and a client that does not read (R11)', () => {
  it('stops reading the run from the store while the socket is full: the server holds a bounded amount, and the client that reads later gets every event once', async () => {
    // Server A ran a run of 6 000 events of 2 kB (20 MB); the client reads it from server B.
    const a = registryOf();
    const b = registryOf();
    const id = await ranOnAKnownToB(a, b);
    const server = await serveSSE(
      (req) => b.attach(id, { lastEventId: String(req.headers['last-event-id'] ?? '') }),
      { heartbeatMs: 0 },
    );
    servers.push(server);
    const { errors } = server;

    // A client that sends its request and never reads (yet).
    const client = await stalledClient(server.url, `/${id}`);
    await until(() => server.response !== undefined);
    const response = server.response;
    let held = 0;
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline) {
      held = Math.max(held, response!.writableLength);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Bounded by the pause threshold (256 KiB) and a frame, not by an 8 MiB replay allowance.
    expect(held).toBeLessThan(512 * 1024);
    expect(errors).toEqual([]);
    expect(response!.destroyed && !response!.writableFinished).toBe(false); // not cut off (it may have finished into the kernel's buffers)

    // Now it reads: every event, once, in order.
    const ids = await client.read();
    expect(ids).toHaveLength(EVENTS);
    expect(ids.every((eventId, index) => eventId === `${id}:${index + 1}`)).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  it('a client that reads at full speed gets a 20 MB replay from another server whole', async () => {
    const a = registryOf();
    const b = registryOf();
    const id = await ranOnAKnownToB(a, b);
    const server = await serveSSE((req) =>
      b.attach(id, { lastEventId: String(req.headers['last-event-id'] ?? '') }),
    );
    servers.push(server);
    const { errors } = server;
    const started = Date.now();
    const events = await lastValueFrom(fromSSE(`${server.url}/${id}`).pipe(toArray()));
    console.log(`fast client: ${EVENTS} events (20 MB) in ${Date.now() - started} ms`);
    expect(events).toHaveLength(EVENTS);
    expect(errors).toEqual([]);
  }, 60_000);

  it('cuts off a client that has not read for stallMs with SlowConsumerError', async () => {
    const runs = registryOf();
    const id = await ran(runs);
    const server = await serveSSE(() => runs.attach(id), { heartbeatMs: 0, stallMs: 500 });
    servers.push(server);
    const { errors } = server;
    const client = await stalledClient(server.url, `/${id}`);
    await until(() => errors.length > 0, 10_000);
    expect(errors[0]).toBeInstanceOf(SlowConsumerError);
    expect(server.response!.destroyed).toBe(true);
    client.socket.destroy();
  }, 30_000);

  it('toSSEResponse paces a registry’s events too, behind a server that reads the body as the socket drains', async () => {
    const runs = registryOf();
    const id = await ran(runs);
    let read = 0; // events the server read from the store
    let sent = () => 0; // bytes the server handed to the kernel
    const server = await listen((req, res) => {
      sent = () => req.socket.bytesWritten;
      const events$ = resumableEvents((after) =>
        runs
          .attach(id, { lastEventId: after ?? String(req.headers['last-event-id'] ?? '') })
          .pipe(tap(() => (read += 1))),
      );
      const response = toSSEResponse(events$, { heartbeatMs: 0 });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      Readable.fromWeb(response.body as NodeReadableStream).pipe(res);
    });
    servers.push(server);
    const client = await stalledClient(server.url, `/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // What the process holds: the frames of the events read less what the kernel took.
    const frame = Buffer.byteLength(
      `id: ${id}:1000\ndata: ${JSON.stringify({ type: 'text-delta', text })}\n\n`,
    );
    const held = read * frame - sent();
    console.log(
      `toSSEResponse, a client that does not read: ${read} of ${EVENTS} events read, ${sent()} bytes sent, about ${held} bytes held`,
    );
    expect(held).toBeLessThan(1024 * 1024);
    const ids = await client.read();
    expect(ids).toHaveLength(EVENTS);
    expect(ids.every((eventId, index) => eventId === `${id}:${index + 1}`)).toBe(true);
  }, 60_000);
});
