import { Redis } from 'ioredis';
import { concat, interval, lastValueFrom, map, of, take, throwError, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { ReplayExpiredError, RunFailedError, RunNotFoundError, RxAgentError } from '../../src/core/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { redisRunEventStore } from '../../src/stores/redis/index.ts';
import { settle } from '../support/settle.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:run:${process.pid}:${Date.now()}:`;
const stores: { close(): Promise<void> }[] = [];
const admin = new Redis(url);
const store = (extra: { replayLimit?: number } = {}) => {
  const created = redisRunEventStore({
    url,
    prefix,
    blockMs: 200,
    readerName: `rx-test-${process.pid}`,
    ...extra,
  });
  stores.push(created);
  return created;
};
const delta = (text: string): AgentEvent => ({ type: 'text-delta', text });
const texts = (events: { event: AgentEvent }[]) =>
  events.map(({ event }) => (event.type === 'text-delta' ? event.text : event.type));

afterAll(async () => {
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  await Promise.all(stores.map((s) => s.close()));
  admin.disconnect();
});

describe('redisRunEventStore: a run started on one server, resumed on another', () => {
  it('gives the second server exactly the events after lastEventId, then the live ones, then the end', async () => {
    const serverA = new RunRegistry({ eventStore: store(), createId: () => 'run-a' });
    const serverB = new RunRegistry({ eventStore: store() });
    serverA.start(
      interval(20).pipe(
        take(30),
        map((i) => delta(`${i}`)),
      ),
    );
    // Watch on A until the tenth event, as a client would before its connection dropped.
    const firstTen = await lastValueFrom(serverA.attach('run-a').pipe(take(10), toArray()));
    expect(texts(firstTen)).toEqual(Array.from({ length: 10 }, (_, i) => `${i}`));
    const rest = await lastValueFrom(
      serverB.attach('run-a', { lastEventId: firstTen.at(-1)!.id }).pipe(toArray()),
    );
    expect(texts(rest)).toEqual(Array.from({ length: 20 }, (_, i) => `${i + 10}`));
    expect(rest[0]!.id).toBe('run-a:11');
    serverA.close();
  });

  it('refuses an unknown run and an id older than the kept events', async () => {
    const serverA = new RunRegistry({ eventStore: store({ replayLimit: 3 }), createId: () => 'run-b' });
    const serverB = new RunRegistry({ eventStore: store({ replayLimit: 3 }) });
    serverA.start(of(delta('a'), delta('b'), delta('c'), delta('d'), delta('e')));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await settle(serverB.attach('nope'))).error).toBeInstanceOf(RunNotFoundError);
    expect((await settle(serverB.attach('run-b', { lastEventId: 'run-b:1' }))).error).toBeInstanceOf(
      ReplayExpiredError,
    );
    const kept = await settle(serverB.attach('run-b', { lastEventId: 'run-b:2' }));
    expect(kept.error).toBeUndefined();
    expect(texts(kept.events)).toEqual(['c', 'd', 'e']);
    serverA.close();
  });

  it('passes a failure to the other server as RunFailedError', async () => {
    const serverA = new RunRegistry({ eventStore: store(), createId: () => 'run-c' });
    const serverB = new RunRegistry({ eventStore: store() });
    serverA.start(
      concat(
        of(delta('x')),
        throwError(() => new RxAgentError('model down', 'model_down')),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { events, error } = await settle(serverB.attach('run-c'));
    expect(texts(events)).toEqual(['x']);
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error).toMatchObject({ remoteCode: 'model_down', message: 'model down' });
    serverA.close();
  });

  it('closes its blocking connection when the reader unsubscribes', async () => {
    const serverA = new RunRegistry({ eventStore: store(), createId: () => 'run-d' });
    const serverB = new RunRegistry({ eventStore: store() });
    serverA.start(interval(50).pipe(map((i) => delta(`${i}`))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Only this test's readers (other tests may share the Redis server).
    const clients = async () =>
      String(await admin.client('LIST'))
        .split('\n')
        .filter((line) => line.includes(` name=rx-test-${process.pid} `)).length;
    const before = await clients();
    const seen: unknown[] = [];
    const failures: unknown[] = [];
    const subscription = serverB
      .attach('run-d')
      .subscribe({ next: (event) => seen.push(event), error: (error: unknown) => failures.push(error) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await clients()).toBe(before + 1);
    subscription.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await clients()).toBe(before);
    expect(seen.length).toBeGreaterThan(0);
    expect(failures).toEqual([]);
    serverA.close();
  });
});
