import type { IncomingMessage, ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import { lastValueFrom, NEVER, timeout } from 'rxjs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RunFailedError, TooManyRunsError } from '../../src/core/index.ts';
import { RunRegistry, runErrorAnswer } from '../../src/http/index.ts';
import { type RedisRunEventStore, redisRunEventStore } from '../../src/stores/redis/index.ts';
import { type Listening, listen } from './support/listen.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:per-actor:${process.pid}:${Date.now()}:`;
const admin = new Redis(url);
const stores: RedisRunEventStore[] = [];
const servers: Listening[] = [];
const registries: RunRegistry[] = [];

/** One app server: a registry on the shared Redis store; `POST /runs` starts an endless run for `x-user`. */
async function appServer() {
  const store = redisRunEventStore({ url, prefix, blockMs: 100, leaseMs: 600 });
  stores.push(store);
  const runs = new RunRegistry({ eventStore: store, maxRunsPerActor: 2 });
  registries.push(runs);
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const actor = { id: String(req.headers['x-user']) };
    const { id } = await runs.admit(NEVER, { actor });
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
  };
  const server = await listen((req, res) => {
    route(req, res).catch((error: unknown) => {
      const { status, body } = runErrorAnswer(error);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  servers.push(server);
  return { runs, store, url: server.url };
}

const post = async (server: string, user: string) => {
  const response = await fetch(`${server}/runs`, { method: 'POST', headers: { 'x-user': user } });
  return {
    status: response.status,
    body: (await response.json()) as { id?: string; error?: { code: string } },
  };
};

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

describe('maxRunsPerActor across app servers sharing Redis', () => {
  it('counts an actor’s running runs on every server: the third run is refused on the other server (503)', async () => {
    const a = await appServer();
    const b = await appServer();
    expect((await post(a.url, 'alice')).status).toBe(201);
    expect((await post(a.url, 'alice')).status).toBe(201);
    const third = await post(b.url, 'alice');
    expect(third.status).toBe(503);
    expect(third.body.error?.code).toBe('too_many_runs');
    // Another actor is not counted with alice.
    expect((await post(b.url, 'bob')).status).toBe(201);
  });

  it('start() on another server fails the run over the limit with TooManyRunsError before it subscribes', async () => {
    const a = await appServer();
    const b = await appServer();
    await a.runs.admit(NEVER, { actor: { id: 'carol' } });
    await a.runs.admit(NEVER, { actor: { id: 'carol' } });
    let subscribed = false;
    const { id } = b.runs.start(
      () => {
        subscribed = true;
        return NEVER;
      },
      { actor: { id: 'carol' } },
    );
    const error = await lastValueFrom(
      b.runs.attach(id, { actor: { id: 'carol' } }).pipe(timeout(3_000)),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedError);
    expect((error as RunFailedError).remoteCode).toBe(new TooManyRunsError(2).code);
    expect(subscribed).toBe(false);
  });

  it('an ended run stops counting at once; a dead server’s runs stop counting within its lease', async () => {
    const a = await appServer();
    const b = await appServer();
    const first = await post(a.url, 'dave');
    await post(a.url, 'dave');
    expect((await post(b.url, 'dave')).status).toBe(503);
    await a.runs.cancel(first.body.id ?? '', { actor: { id: 'dave' } });
    expect((await post(b.url, 'dave')).status).toBe(201);
    expect((await post(b.url, 'dave')).status).toBe(503);
    // Server A dies (its store stops renewing; its runs are never ended): within the lease (600 ms)
    // its remaining run no longer counts.
    await a.store.close();
    const deadline = Date.now() + 3_000;
    let status = 503;
    while (status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await post(b.url, 'dave')).status;
    }
    expect(status).toBe(201);
  });
});
