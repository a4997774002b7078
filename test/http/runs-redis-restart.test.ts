import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { interval, map, take } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { fromSSE, RunRegistry, writeSSE } from '../../src/http/index.ts';
import { type RedisRunEventStore, redisRunEventStore } from '../../src/stores/redis/index.ts';
import { listen, until } from './support/listen.ts';
import { freePort, redisServer } from './support/redis-server.ts';

const children: ChildProcess[] = [];
const stores: RedisRunEventStore[] = [];
const registries: RunRegistry[] = [];
afterEach(async () => {
  for (const runs of registries.splice(0)) runs.close();
  await Promise.all(stores.splice(0).map((store) => store.close()));
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('RunRegistry across app servers when Redis restarts', () => {
  it('a run still running on server A is known and cancellable from server B again, within a lease, after Redis lost its keys', async () => {
    const port = await freePort();
    children.push(await redisServer(port));
    const url = `redis://127.0.0.1:${port}`;
    const serverOf = () => {
      const store = redisRunEventStore({ url, prefix: 'r:', blockMs: 100, leaseMs: 600 });
      stores.push(store);
      const runs = new RunRegistry({ eventStore: store, graceMs: 60_000 });
      registries.push(runs);
      return runs;
    };
    const a = serverOf();
    const b = serverOf();
    const { id } = a.start(interval(50).pipe(map((i): AgentEvent => ({ type: 'text-delta', text: `${i}` }))));
    for (let i = 0; i < 200 && (await b.status(id)) !== 'running'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(b.status(id)).resolves.toBe('running');

    children.shift()?.kill('SIGKILL'); // Redis restarts, empty
    children.push(await redisServer(port));

    // Within a bound (the lease), server B knows the run again and can stop it.
    let status: string | null = null;
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (status = await b.status(id).catch(() => null)) !== 'running')
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(status).toBe('running');
    await expect(b.cancel(id)).resolves.toBe(true);
    await until(() => a.statusHere(id) === 'cancelled', 5_000);
  }, 30_000);

  it('a Redis that stops answering for a moment does not make server A cancel a run watched from server B', async () => {
    const port = await freePort();
    const redis = await redisServer(port);
    children.push(redis);
    const serverOf = (graceMs: number) => {
      // Commands give up fast, so the grace check meets an error while Redis is stalled.
      const client = new Redis({ port, host: '127.0.0.1', commandTimeout: 200, maxRetriesPerRequest: 1 });
      client.on('error', () => undefined);
      const store = redisRunEventStore({ client, prefix: 'w:', blockMs: 100, leaseMs: 3_000 });
      stores.push(store);
      const closeStore = store.close.bind(store);
      store.close = async () => {
        await closeStore();
        client.disconnect();
      };
      const runs = new RunRegistry({ eventStore: store, graceMs });
      registries.push(runs);
      return runs;
    };
    const a = serverOf(200);
    const b = serverOf(60_000);
    const { id } = a.start(interval(50).pipe(map((i): AgentEvent => ({ type: 'text-delta', text: `${i}` }))));
    for (let i = 0; i < 200 && (await b.status(id)) !== 'running'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    // B watches the whole time, attaching again after an error as fromSSE would.
    let watching = true;
    const watch = () => {
      if (watching) b.attach(id).subscribe({ error: () => setTimeout(watch, 50) });
    };
    watch();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(a.statusHere(id)).toBe('running');

    redis.kill('SIGSTOP'); // a stalled Redis: a failover, a long fork, a saturated link
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    redis.kill('SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    watching = false;
    expect(a.statusHere(id)).toBe('running');
  }, 30_000);

  it('a client watching on server B through a Redis restart resumes and reads on, not "the run failed"', async () => {
    const port = await freePort();
    children.push(await redisServer(port));
    const url = `redis://127.0.0.1:${port}`;
    const storeOf = () => {
      const store = redisRunEventStore({ url, prefix: 'c:', blockMs: 100, leaseMs: 600 });
      stores.push(store);
      return store;
    };
    const a = new RunRegistry({ eventStore: storeOf() });
    const b = new RunRegistry({ eventStore: storeOf() });
    registries.push(a, b);
    const server = await listen((req, res) => {
      const id = (req.url ?? '/').slice(1);
      writeSSE(b.attach(id, { lastEventId: String(req.headers['last-event-id'] ?? '') }), res, {
        retryMs: 50,
        heartbeatMs: 200,
      });
    });
    const { id } = a.start(
      interval(50).pipe(
        take(80),
        map((i): AgentEvent => ({ type: 'text-delta', text: `${i}` })),
      ),
    );
    for (let i = 0; i < 200 && (await b.status(id)) !== 'running'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const seen: string[] = [];
    const watched = new Promise<unknown>((resolve) => {
      fromSSE(`${server.url}/${id}`, { retryMs: 50 }).subscribe({
        next: (event) => {
          if (event.type === 'text-delta') seen.push(event.text);
        },
        error: resolve,
        complete: () => resolve(undefined),
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    children.shift()?.kill('SIGKILL'); // Redis restarts
    children.push(await redisServer(port));
    const error = await watched;
    await server.close();
    // The events written before the restart are gone with it: the client may be told so (a typed
    // resume error), but it is never told that a run that goes on has failed.
    expect(String(error)).not.toMatch(/RunFailedError|failed/);
  }, 30_000);
});
