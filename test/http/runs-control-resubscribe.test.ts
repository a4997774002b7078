import type { ChildProcess } from 'node:child_process';
import { interval, map } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { type RedisRunEventStore, redisRunEventStore } from '../../src/stores/redis/index.ts';
import { until } from './support/listen.ts';
import { freePort, redisServer } from './support/redis-server.ts';

const children: ChildProcess[] = [];
const stores: RedisRunEventStore[] = [];
const registries: RunRegistry[] = [];
afterEach(async () => {
  for (const runs of registries.splice(0)) runs.close();
  await Promise.all(stores.splice(0).map((store) => store.close()));
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const ticks = () => interval(50).pipe(map((i): AgentEvent => ({ type: 'text-delta', text: `${i}` })));

/** Cancels from server B until server A's run stops (the writer renews its state within a lease). */
async function cancelFrom(b: RunRegistry, a: RunRegistry, id: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && a.statusHere(id) === 'running') {
    await b.cancel(id).catch(() => false);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a run’s control subscription after a long Redis outage', () => {
  const setUp = async () => {
    const port = await freePort();
    children.push(await redisServer(port));
    const serverOf = () => {
      const store = redisRunEventStore({
        url: `redis://127.0.0.1:${port}`,
        prefix: 'o:',
        blockMs: 100,
        leaseMs: 600,
      });
      stores.push(store);
      const runs = new RunRegistry({ eventStore: store, graceMs: 60_000 });
      registries.push(runs);
      return runs;
    };
    return { port, a: serverOf(), b: serverOf() };
  };
  const outage = async (port: number, ms: number) => {
    children.shift()?.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, ms));
    children.push(await redisServer(port));
  };

  it('a run started before a 4 s outage is cancelled from server B after Redis comes back', async () => {
    const { port, a, b } = await setUp();
    const { id } = a.start(ticks());
    await until(() => a.statusHere(id) === 'running');
    for (let i = 0; i < 200 && (await b.status(id)) !== 'running'; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await outage(port, 4_000);
    await cancelFrom(b, a, id, 8_000);
    expect(a.statusHere(id)).toBe('cancelled');
  }, 30_000);

  it('a run started during the outage is cancelled from server B after Redis comes back', async () => {
    const { port, a, b } = await setUp();
    children.shift()?.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { id } = a.start(ticks());
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    children.push(await redisServer(port));
    await cancelFrom(b, a, id, 8_000);
    expect(a.statusHere(id)).toBe('cancelled');
  }, 30_000);

  it('many runs on one server share the subscriber connection’s ready listener (no listener leak)', async () => {
    const { port, a, b } = await setUp();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const ids = Array.from({ length: 30 }, () => a.start(ticks()).id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await outage(port, 500);
    const last = ids.at(-1) ?? '';
    await cancelFrom(b, a, last, 8_000);
    process.off('warning', onWarning);
    expect(a.statusHere(last)).toBe('cancelled');
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  }, 30_000);
});
