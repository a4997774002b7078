import { Redis } from 'ioredis';
import { concat, interval, lastValueFrom, map, of, take, throwError, toArray } from 'rxjs';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { ReplayExpiredError, RunFailedError, RunNotFoundError, RxAgentError } from '../../src/core/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { redisRunEventStore } from '../../src/stores/redis/index.ts';
import { settle } from '../support/settle.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:run:${process.pid}:${Date.now()}:`;
const stores: { close(): Promise<void> }[] = [];
const admin = new Redis(url);
const store = (extra: { replayLimit?: number; readerName?: string } = {}) => {
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
/**
 * Resolves once the run's events are in Redis: a read through the writing server's own connection
 * is answered after the writes sent before it (no fixed sleep, robust on a loaded machine).
 */
const written = (server: RunRegistry, runId: string) => settle(server.attach(runId));
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
    await written(serverA, 'run-b');
    expect((await settle(serverB.attach('nope'))).error).toBeInstanceOf(RunNotFoundError);
    expect((await settle(serverB.attach('run-b', { lastEventId: 'run-b:1' }))).error).toBeInstanceOf(
      ReplayExpiredError,
    );
    const kept = await settle(serverB.attach('run-b', { lastEventId: 'run-b:2' }));
    expect(kept.error).toBeUndefined();
    expect(texts(kept.events)).toEqual(['c', 'd', 'e']);
    serverA.close();
  });

  it('is never a silent gap: events trimmed between its checks and its read make a ReplayExpiredError', async () => {
    const events = store({ replayLimit: 3 });
    events.open('run-e');
    for (let seq = 1; seq <= 5; seq += 1)
      events.append('run-e', { id: `run-e:${seq}`, event: delta(`${seq}`) });
    // Kept: 2..5, so resuming after 1 is allowed when the read starts; the appends sent right after
    // it (on the same connection, so in this order) trim 2..4 away before it reads them.
    const read = settle(events.read('run-e', 1));
    for (let seq = 6; seq <= 8; seq += 1)
      events.append('run-e', { id: `run-e:${seq}`, event: delta(`${seq}`) });
    events.end('run-e', { type: 'completed' });
    const { events: got, error } = await read;
    expect(error).toBeInstanceOf(ReplayExpiredError);
    expect(texts(got)).toEqual([]);
  });

  it('refuses an id past the last event of a finished run, as the memory store does', async () => {
    const events = store();
    events.open('run-f');
    events.append('run-f', { id: 'run-f:1', event: delta('a') });
    events.append('run-f', { id: 'run-f:2', event: delta('b') });
    events.end('run-f', { type: 'completed' });
    expect((await settle(events.read('run-f', 5))).error).toBeInstanceOf(ReplayExpiredError);
    const atEnd = await settle(events.read('run-f', 2));
    expect([atEnd.events, atEnd.error]).toEqual([[], undefined]);
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
    await written(serverA, 'run-c');
    const { events, error } = await settle(serverB.attach('run-c'));
    expect(texts(events)).toEqual(['x']);
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error).toMatchObject({ remoteCode: 'model_down', message: 'model down' });
    serverA.close();
  });

  it('closes its blocking connection when the reader unsubscribes', async () => {
    // Server A's readers are named apart: only server B's reader is counted.
    const serverA = new RunRegistry({
      eventStore: store({ readerName: `rx-test-a-${process.pid}` }),
      createId: () => 'run-d',
    });
    const serverB = new RunRegistry({ eventStore: store() });
    serverA.start(interval(50).pipe(map((i) => delta(`${i}`))));
    await lastValueFrom(serverA.attach('run-d').pipe(take(1)));
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
    await vi.waitFor(async () => expect(await clients()).toBe(before + 1), { timeout: 10_000 });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 10_000 });
    subscription.unsubscribe();
    await vi.waitFor(async () => expect(await clients()).toBe(before), { timeout: 10_000 });
    expect(failures).toEqual([]);
    serverA.close();
  });
});
