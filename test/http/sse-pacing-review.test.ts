import type { Socket } from 'node:net';
import { concat, map, NEVER, range } from 'rxjs';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { SlowConsumerError } from '../../src/core/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { type RedisRunEventStore, redisRunEventStore } from '../../src/stores/redis/index.ts';
import { type Listening, until } from './support/listen.ts';
import { serveSSE, stalledClient } from './support/sse-clients.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:r17b-pacing:${process.pid}:${Date.now()}:`;
const admin = new Redis(url);
const stores: RedisRunEventStore[] = [];
afterAll(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

const registries: RunRegistry[] = [];
const servers: Listening[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const runs of registries.splice(0)) runs.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const delta = (size: number) => (): AgentEvent => ({ type: 'text-delta', text: 'x'.repeat(size) });

/** `stalledClient`, its socket destroyed after the test. */
async function stalled(url: string, path: string): ReturnType<typeof stalledClient> {
  const client = await stalledClient(url, path);
  sockets.push(client.socket);
  return client;
}

describe('writeSSE pacing a registry’s events (review r17b)', () => {
  it('a client whose socket is full still watches the run: a pause longer than graceMs does not cancel it', async () => {
    const runs = new RunRegistry({ graceMs: 300 });
    registries.push(runs);
    // 10 MB of events, then the run goes on (waiting for its model).
    const { id } = runs.start(concat(range(1, 5_000).pipe(map(delta(2_000))), NEVER));
    // Watched until the client below is connected.
    const first = runs.attach(id).subscribe();
    const server = await serveSSE(() => runs.attach(id), { heartbeatMs: 0, stallMs: 10_000 });
    servers.push(server);
    const { errors } = server;
    const client = await stalled(server.url, `/${id}`);
    await until(() => server.response !== undefined && server.response.writableLength > 262_144);
    first.unsubscribe();
    // Connected, not reading for a while (a phone on a slow link), well within stallMs.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(errors).toEqual([]);
    expect(runs.statusHere(id)).toBe('running');
    // Once the client is gone nothing holds the run: cancelled after graceMs (no watcher leaked).
    client.socket.destroy();
    await until(() => runs.statusHere(id) === 'cancelled', 5_000);
  }, 30_000);

  it('across servers too: a reader paused on server B past the lease keeps server A’s run watched', async () => {
    const registryOf = (graceMs: number) => {
      const store = redisRunEventStore({ url, prefix, leaseMs: 600 });
      stores.push(store);
      const runs = new RunRegistry({ eventStore: store, graceMs });
      registries.push(runs);
      return runs;
    };
    const a = registryOf(300);
    const b = registryOf(300);
    const { id } = a.start(concat(range(1, 5_000).pipe(map(delta(2_000))), NEVER));
    // Watched on A until the client below is connected to B, which reads what A stored.
    let stored = 0;
    const first = a.attach(id).subscribe({ next: () => (stored += 1), error: () => undefined });
    await until(() => stored >= 100, 20_000);
    const server = await serveSSE(() => b.attach(id), { heartbeatMs: 0, stallMs: 10_000 });
    servers.push(server);
    const { errors } = server;
    await stalled(server.url, `/${id}`);
    await until(() => server.response !== undefined && server.response.writableLength > 262_144, 20_000);
    first.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(errors).toEqual([]);
    expect(a.statusHere(id)).toBe('running');
  }, 40_000);

  it('events larger than maxBufferedBytes (a tool result with an image) pause a client that is not reading, never cut it off', async () => {
    const runs = new RunRegistry();
    registries.push(runs);
    const { id } = runs.start(range(1, 10).pipe(map(delta(1_200_000))));
    await until(() => runs.statusHere(id) === 'completed');
    const server = await serveSSE(() => runs.attach(id), { heartbeatMs: 0 });
    servers.push(server);
    const { errors } = server;
    const client = await stalled(server.url, `/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(errors).toEqual([]);
    const ids = await client.read();
    expect(ids).toEqual(Array.from({ length: 10 }, (_, index) => `${id}:${index + 1}`));
    expect(errors).toEqual([]);
  }, 30_000);

  it('a pauseBytes below the socket’s high-water mark still resumes once the client reads (no drain event comes then)', async () => {
    const runs = new RunRegistry();
    registries.push(runs);
    const { id } = runs.start(range(1, 3_000).pipe(map(delta(2_000))));
    await until(() => runs.statusHere(id) === 'completed');
    const server = await serveSSE(() => runs.attach(id), {
      heartbeatMs: 0,
      pauseBytes: 4_000,
      stallMs: 2_000,
    });
    servers.push(server);
    const { errors } = server;
    const client = await stalled(server.url, `/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ids = await client.read();
    expect(errors).toEqual([]);
    expect(ids).toEqual(Array.from({ length: 3_000 }, (_, index) => `${id}:${index + 1}`));
  }, 30_000);

  it('another actor’s paced attach does not keep a run it may not read alive', async () => {
    const runs = new RunRegistry({ graceMs: 300 });
    registries.push(runs);
    const { id } = runs.start(NEVER, { actor: { id: 'alice' } });
    const held = runs.attach(id, { actor: { id: 'mallory' } }).watching?.subscribe();
    await until(() => runs.statusHere(id) === 'cancelled', 5_000);
    held?.unsubscribe();
  });

  it('a heartbeat while paused behind one event larger than maxBufferedBytes does not cut the client off', async () => {
    const runs = new RunRegistry();
    registries.push(runs);
    // A 12 MB tool result, then the run waits for its model (the client is slow meanwhile).
    const { id } = runs.start(concat(range(1, 1).pipe(map(delta(12_000_000))), NEVER));
    const server = await serveSSE(() => runs.attach(id), { heartbeatMs: 200, stallMs: 10_000 });
    servers.push(server);
    const { errors } = server;
    await stalled(server.url, `/${id}`);
    await until(() => server.response !== undefined && server.response.writableLength > 1_048_576);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(errors).toEqual([]);
    expect(server.response!.destroyed).toBe(false);
  }, 30_000);

  it('a run that ended while the socket was full: its last bytes wait for a client that never reads them at most stallMs', async () => {
    const runs = new RunRegistry();
    registries.push(runs);
    const { id } = runs.start(range(1, 1).pipe(map(delta(12_000_000))));
    await until(() => runs.statusHere(id) === 'completed');
    const server = await serveSSE(() => runs.attach(id), { heartbeatMs: 0, stallMs: 500 });
    servers.push(server);
    const { errors } = server;
    await stalled(server.url, `/${id}`);
    await until(() => errors.length > 0, 5_000);
    expect(errors[0]).toBeInstanceOf(SlowConsumerError);
    expect(server.response!.destroyed).toBe(true);
  }, 30_000);
});
