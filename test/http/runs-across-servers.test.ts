import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { concat, interval, map, NEVER, type Observable, take, tap } from 'rxjs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import {
  ApprovalNotPendingError,
  RunCancelledError,
  RunLostError,
  RunNotFoundError,
} from '../../src/core/index.ts';
import {
  fromSSE,
  RunRegistry,
  type RunRegistryOptions,
  runErrorAnswer,
  type SequencedEvent,
  writeSSE,
} from '../../src/http/index.ts';
import { type RedisRunEventStore, redisRunEventStore } from '../../src/stores/redis/index.ts';
import { settle } from '../support/settle.ts';
import { bodyOf, type Listening, listen, until } from './support/listen.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:xs:${process.pid}:${Date.now()}:`;
const admin = new Redis(url);
const stores: RedisRunEventStore[] = [];
const servers: Listening[] = [];
const registries: RunRegistry[] = [];
const delta = (text: string): AgentEvent => ({ type: 'text-delta', text });
const texts = (events: AgentEvent[]) => events.map((e) => (e.type === 'text-delta' ? e.text : e.type));
/** Resolves once server `runs` sees the run (its state reached Redis). */
const known = async (runs: RunRegistry, id: string, status?: string) => {
  for (;;) {
    const seen = await runs.status(id);
    if (status === undefined ? seen !== null : seen === status) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** One app server: a registry on the shared Redis store, and the README's routes over HTTP. */
async function appServer(options: RunRegistryOptions = {}) {
  const store = redisRunEventStore({ url, prefix, blockMs: 100, leaseMs: 600 });
  stores.push(store);
  const runs = new RunRegistry({ eventStore: store, ...options });
  registries.push(runs);
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const [, , id = '', action, callId] = (req.url ?? '/').split('/'); // /runs/:id[/cancel|/approvals/:call]
    const actor = typeof req.headers['x-user'] === 'string' ? { id: req.headers['x-user'] } : undefined;
    if (req.method === 'POST' && action === 'cancel')
      return json(res, 200, { cancelled: await runs.cancel(id, { actor }) });
    if (req.method === 'POST' && action === 'approvals') {
      const { approved } = JSON.parse(await bodyOf(req)) as { approved: boolean };
      await runs.decide(id, callId ?? '', { approved }, { actor });
      return json(res, 200, { decided: true });
    }
    if (req.method === 'GET' && action === 'status') return json(res, 200, { status: await runs.status(id) });
    const resume = { lastEventId: String(req.headers['last-event-id'] ?? ''), actor };
    await runs.check(id, resume);
    writeSSE(runs.attach(id, resume), res, { retryMs: 100, heartbeatMs: 200 });
  };
  const server = await listen((req, res) => {
    route(req, res).catch((error: unknown) => {
      const { status, body } = runErrorAnswer(error);
      if (res.headersSent) res.destroy();
      else json(res, status, body);
    });
  });
  servers.push(server);
  return { runs, url: server.url, store };
}

afterEach(async () => {
  for (const runs of registries.splice(0)) runs.close();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

const ticks = (n: number, ms: number): Observable<AgentEvent> =>
  interval(ms).pipe(
    take(n),
    map((i) => delta(`${i}`)),
  );

describe('RunRegistry across app servers sharing a redisRunEventStore', () => {
  it('a watcher on server B keeps a run on server A alive past graceMs, and B reads it all', async () => {
    const a = await appServer({ graceMs: 1000 });
    const b = await appServer();
    const { id } = a.runs.start(ticks(30, 100)); // 3 s, three times the grace
    await known(b.runs, id);
    const { events, error } = await settle(fromSSE(`${b.url}/runs/${id}`, { maxReconnects: 0 }));
    expect(error).toBeUndefined();
    expect(texts(events)).toEqual(Array.from({ length: 30 }, (_, i) => `${i}`));
    expect(a.runs.statusHere(id)).toBe('completed');
  });

  it('status, cancel and decide work from server B; the client of B sees the run stopped', async () => {
    const a = await appServer();
    const b = await appServer();
    const toolCall = { id: 'call_1', name: 'send', arguments: {} };
    const { id } = a.runs.start(({ approve }) =>
      concat(
        [{ type: 'approval-requested', step: 1, toolCall } as AgentEvent],
        approve({ toolCall }).pipe(map((ok) => delta(ok ? 'approved' : 'refused'))),
        ticks(1000, 20),
      ),
    );
    await known(b.runs, id);
    const watched = settle(fromSSE(`${b.url}/runs/${id}`, { maxReconnects: 0 }));
    await until(() => a.runs.statusHere(id) === 'awaiting-approval');
    await known(b.runs, id, 'awaiting-approval'); // B reads it from Redis
    await expect(b.runs.decide(id, 'call_9', { approved: true })).rejects.toBeInstanceOf(
      ApprovalNotPendingError,
    );
    const decided = await fetch(`${b.url}/runs/${id}/approvals/call_1`, {
      method: 'POST',
      body: '{"approved":true}',
    });
    expect(decided.status).toBe(200);
    await until(() => a.runs.statusHere(id) === 'running');
    while ((await b.runs.status(id)) !== 'running') await new Promise((resolve) => setTimeout(resolve, 10));
    const cancelled = await fetch(`${b.url}/runs/${id}/cancel`, { method: 'POST' });
    await expect(cancelled.json()).resolves.toEqual({ cancelled: true });
    await until(() => a.runs.statusHere(id) === 'cancelled');
    const { events, error } = await watched;
    expect(error).toBeInstanceOf(RunCancelledError);
    expect(texts(events).slice(0, 2)).toEqual(['approval-requested', 'approved']);
    await expect(b.runs.status(id)).resolves.toBe('cancelled');
  });

  it('refuses attach, cancel and decide from another actor, on either server', async () => {
    const a = await appServer();
    const b = await appServer();
    const { id } = a.runs.start(ticks(1000, 20), { actor: { id: 'alice' } });
    await known(b.runs, id);
    for (const server of [a, b]) {
      const foreign = await fetch(`${server.url}/runs/${id}`, { headers: { 'x-user': 'mallory' } });
      expect(foreign.status).toBe(404);
      await expect(server.runs.cancel(id, { actor: { id: 'mallory' } })).resolves.toBe(false);
      await expect(
        server.runs.decide(id, 'c', { approved: true }, { actor: { id: 'mallory' } }),
      ).rejects.toBeInstanceOf(RunNotFoundError);
    }
    expect(a.runs.statusHere(id)).toBe('running');
    await expect(b.runs.cancel(id, { actor: { id: 'alice' } })).resolves.toBe(true);
    await until(() => a.runs.statusHere(id) === 'cancelled');
  });

  it('sends a fast client a replay of over 1 MiB from Redis in full', async () => {
    const a = await appServer();
    const b = await appServer();
    const text = 'x'.repeat(1000);
    const { id } = a.runs.start(ticks(3000, 0).pipe(map(() => delta(text))));
    // 3 MB into Redis first: on a loaded 2-core machine that alone can take several seconds.
    await until(() => a.runs.statusHere(id) === 'completed', 25_000);
    const { events, error } = await settle(fromSSE(`${b.url}/runs/${id}`, { maxReconnects: 0 }));
    expect([String(error), events.length]).toEqual(['undefined', 3000]);
  }, 30_000);

  it('ends the watchers with RunLostError when the writing server dies', async () => {
    const a = await appServer();
    const b = await appServer();
    const { id } = a.runs.start(ticks(100_000, 50));
    await known(b.runs, id);
    const watched = settle(b.runs.attach(id));
    await until(() => a.runs.statusHere(id) === 'running');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await a.store.close(); // the writer stops writing and refreshing, as a killed process would
    const { events, error } = await watched;
    expect(events.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(RunLostError);
  }, 15_000);

  it('ends the watchers with RunLostError within a bound when the writing process is killed', async () => {
    const b = await appServer();
    const writer = spawn(process.execPath, [
      '--conditions=rxagent-source',
      fileURLToPath(new URL('./support/run-writer.ts', import.meta.url)),
      url,
      prefix,
    ]);
    try {
      const [line] = (await once(writer.stdout, 'data')) as [Buffer];
      const id = line.toString().trim();
      await known(b.runs, id);
      const seen: SequencedEvent[] = [];
      const watched = settle(b.runs.attach(id).pipe(tap((event) => seen.push(event))));
      await until(() => seen.length >= 5);
      writer.kill('SIGKILL');
      const killedAt = Date.now();
      const { error } = await watched;
      expect(error).toBeInstanceOf(RunLostError);
      // leaseMs (600) + blockMs (100), with room for a loaded machine.
      expect(Date.now() - killedAt).toBeLessThan(5_000);
    } finally {
      writer.kill('SIGKILL');
    }
  }, 20_000);

  it('ends the watchers with RunLostError when the run expired from Redis', async () => {
    const a = await appServer();
    const b = await appServer();
    const { id } = a.runs.start(concat(ticks(2, 10), NEVER)); // a run that waits (e.g. on a tool)
    await known(b.runs, id);
    const watched = settle(b.runs.attach(id));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await admin.del(`${prefix}{${id}}`); // its events vanish, as at their TTL
    const { error } = await watched;
    expect(error).toBeInstanceOf(RunLostError);
  }, 15_000);
});
