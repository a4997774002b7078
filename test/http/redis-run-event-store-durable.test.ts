import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { RunLostError } from '../../src/core/index.ts';
import { eventId } from '../../src/http/index.ts';
import { redisRunEventStore } from '../../src/stores/redis/index.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:durable-run:${process.pid}:${Date.now()}:`;
const admin = new Redis(url);
const stores: { close(): Promise<void> }[] = [];
const store = () => {
  const created = redisRunEventStore({ url, prefix, blockMs: 50, leaseMs: 300, retainMs: 5_000 });
  stores.push(created);
  return created;
};
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

describe('redisRunEventStore: a durable run (kept by a queue, not by the process that opened it)', () => {
  it('keeps its readers waiting past the lease while no process writes, until another process ends it', async () => {
    const opener = store();
    const writer = store();
    opener.open('durable-1', { owner: 'alice', durable: true });
    // Answered on the opener's connection after its writes: the run is in Redis.
    await opener.check!('durable-1', 0);
    const read = lastValueFrom(store().read('durable-1', 0).pipe(toArray()));
    // Well past leaseMs with nobody renewing anything: the run is not lost.
    await sleep(1_000);
    expect(await admin.pttl(`${prefix}{durable-1}:state`)).toBe(-1);
    writer.append('durable-1', { id: eventId('durable-1', 1), event: { type: 'text-delta', text: 'hi' } });
    writer.end('durable-1', { type: 'completed' });
    expect((await read).map((e) => e.id)).toEqual(['durable-1:1']);
    // Ended: kept for retainMs, then gone.
    const ttl = await admin.pttl(`${prefix}{durable-1}:state`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    expect(await opener.control!.state('durable-1')).toMatchObject({ owner: 'alice' });
  });

  it('keeps its events past the idle TTL while it waits (a parked approval of days), until it ends', async () => {
    const short = redisRunEventStore({
      url,
      prefix,
      blockMs: 50,
      leaseMs: 300,
      retainMs: 5_000,
      idleTtlMs: 200,
    });
    stores.push(short);
    short.open('durable-idle', { durable: true });
    await short.fence!('durable-idle', 'attempt-1');
    short.append(
      'durable-idle',
      { id: eventId('durable-idle', 1), event: { type: 'text-delta', text: 'a' } },
      'attempt-1',
    );
    short.append(
      'durable-idle',
      { id: eventId('durable-idle', 2), event: { type: 'text-delta', text: 'b' } },
      'attempt-1',
    );
    await short.check!('durable-idle', 2);
    // Far past idleTtlMs with no write: the run is parked, not gone, and its numbering goes on.
    await sleep(600);
    expect(await admin.pttl(`${prefix}{durable-idle}`)).toBe(-1);
    expect(await short.lastSeq!('durable-idle')).toBe(2);
    short.end('durable-idle', { type: 'completed' });
    await short.check!('durable-idle', 0);
    expect(await admin.pttl(`${prefix}{durable-idle}`)).toBeGreaterThan(0);
  });

  it('a run opened without it is lost once its opener stops renewing (unchanged)', async () => {
    const opener = store();
    opener.open('leased-1', {});
    await opener.check!('leased-1', 0);
    const reader = store();
    await opener.close();
    const error = await failure(lastValueFrom(reader.read('leased-1', 0)));
    expect(RunLostError.is(error)).toBe(true);
  });
});
