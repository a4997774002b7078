import type { IncomingMessage, ServerResponse } from 'node:http';
import { concat, interval, map, type Observable, take, throwError } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import {
  ApiError,
  ReplayExpiredError,
  RunCancelledError,
  RunFailedError,
  RunNotFoundError,
} from '../../src/core/index.ts';
import { fromSSE, RunRegistry, runErrorAnswer, writeSSE } from '../../src/http/index.ts';
import { settle } from '../support/settle.ts';
import { type Listening, listen, until } from './support/listen.ts';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts';

const delta = (text: string): AgentEvent => ({ type: 'text-delta', text });
const texts = (events: AgentEvent[]) => events.map((e) => (e.type === 'text-delta' ? e.text : e.type));
const ticks = (n: number, ms: number): Observable<AgentEvent> =>
  interval(ms).pipe(
    take(n),
    map((i) => delta(`${i}`)),
  );
const upTo = (n: number) => Array.from({ length: n }, (_, i) => `${i}`);
const closers: (Listening | TcpProxy)[] = [];
const registries: RunRegistry[] = [];
afterEach(async () => {
  for (const runs of registries.splice(0)) runs.close();
  await Promise.all(closers.splice(0).map((c) => c.close()));
});

/** The README's server pattern: GET /runs/:id (check, then the stream), POST /runs/:id/stop. */
async function labServer(heartbeatMs = 15_000) {
  const runs = new RunRegistry();
  registries.push(runs);
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const [, , id = '', action] = (req.url ?? '/').split('/');
    if (req.method === 'POST' && action === 'stop')
      return res.end(JSON.stringify({ stopped: await runs.cancel(id) }));
    const resume = { lastEventId: String(req.headers['last-event-id'] ?? '') };
    await runs.check(id, resume);
    writeSSE(runs.attach(id, resume), res, { retryMs: 300, heartbeatMs });
  };
  const server = await listen((req, res) => {
    route(req, res).catch((error: unknown) => {
      const { status, body } = runErrorAnswer(error);
      if (res.headersSent) res.destroy();
      else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  closers.push(server);
  return { runs, url: server.url };
}

describe('fromSSE against the documented server pattern', () => {
  it('outlasts a 3 s outage, backing off between reconnects (finding 15)', async () => {
    const lab = await labServer();
    const proxy = await startTcpProxy(lab.url);
    closers.push(proxy);
    const { id } = lab.runs.start(ticks(60, 60));
    const done = settle(fromSSE(`${proxy.url}/runs/${id}`));
    await until(() => lab.runs.statusHere(id) === 'running');
    await new Promise((resolve) => setTimeout(resolve, 600));
    proxy.refuseFor(3000);
    proxy.drop();
    const { events, error } = await done;
    expect(error).toBeUndefined();
    expect(texts(events)).toEqual(upTo(60));
    // Backoff: far fewer than one connection per retry: (300 ms) over 3 s.
    expect(proxy.connections).toBeLessThan(8);
  }, 20_000);

  it('notices a silent half-open connection through the heartbeats and resumes (finding 16)', async () => {
    const lab = await labServer(100);
    const proxy = await startTcpProxy(lab.url);
    closers.push(proxy);
    const { id } = lab.runs.start(ticks(40, 50));
    const done = settle(fromSSE(`${proxy.url}/runs/${id}`, { idleTimeoutMs: 500 }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    proxy.freeze();
    const { events, error } = await done;
    expect(error).toBeUndefined();
    expect(texts(events)).toEqual(upTo(40));
    expect(proxy.connections).toBeGreaterThanOrEqual(2);
  }, 20_000);

  it('answers an expired or foreign Last-Event-ID with 410 / 404 before the stream, typed in fromSSE (17, D9)', async () => {
    const lab = await labServer();
    const { id } = lab.runs.start(ticks(3, 1));
    await until(() => lab.runs.statusHere(id) === 'completed');
    const messageOf = async (response: Response) =>
      ((await response.json()) as { error: { message: string } }).error.message;
    // Each answer says what is wrong with the id, not that the run does not exist (review of D9).
    const ahead = await fetch(`${lab.url}/runs/${id}`, { headers: { 'last-event-id': `${id}:999` } });
    expect(ahead.status).toBe(410);
    expect(await messageOf(ahead)).toBe(`Run ${id} has not sent event ${id}:999: its last is ${id}:3`);
    const foreign = await fetch(`${lab.url}/runs/${id}`, { headers: { 'last-event-id': 'other-run:2' } });
    expect(foreign.status).toBe(404);
    expect(await messageOf(foreign)).toBe(
      `Last-Event-ID other-run:2 is an event of another run, not of run ${id}`,
    );
    for (const garbage of ['garbage', `${id}:02`, `${id}:1.5`, `${id}:-1`]) {
      const refused = await fetch(`${lab.url}/runs/${id}`, { headers: { 'last-event-id': garbage } });
      expect(refused.status).toBe(404);
      expect(await messageOf(refused)).toBe(
        `Last-Event-ID ${JSON.stringify(garbage)} is not an event id (<run id>:<number>) of run ${id}`,
      );
    }
    const unknown = await settle(fromSSE(`${lab.url}/runs/nope`));
    expect(unknown.error).toBeInstanceOf(RunNotFoundError);
    const resumed = await settle(
      fromSSE(`${lab.url}/runs/${id}`, { headers: { 'last-event-id': `${id}:999` }, maxReconnects: 0 }),
    );
    expect(resumed.error).toBeInstanceOf(ReplayExpiredError);
  });

  it('tells a stopped run from a finished one: RunCancelledError, after the events before the stop (D10)', async () => {
    const lab = await labServer();
    const finished = lab.runs.start(ticks(3, 1));
    await expect(settle(fromSSE(`${lab.url}/runs/${finished.id}`))).resolves.toEqual({
      events: [delta('0'), delta('1'), delta('2')],
    });
    const { id } = lab.runs.start(ticks(1000, 20));
    const seen: AgentEvent[] = [];
    const done = settle(fromSSE(`${lab.url}/runs/${id}`).pipe(map((e) => (seen.push(e), e))));
    await until(() => seen.length >= 3);
    await fetch(`${lab.url}/runs/${id}/stop`, { method: 'POST' });
    const { events, error } = await done;
    expect(error).toBeInstanceOf(RunCancelledError);
    expect(events.length).toBeGreaterThanOrEqual(3);
  });

  it('never sends a provider error text to the browser: its code and a safe message (finding 21)', async () => {
    const lab = await labServer();
    const upstream = new ApiError('openai returned HTTP 401: Incorrect API key provided: sk-proj-****abcd', {
      status: 401,
      provider: 'openai',
    });
    const { id } = lab.runs.start(
      concat(
        ticks(1, 1),
        throwError(() => upstream),
      ),
    );
    await until(() => lab.runs.statusHere(id) === 'failed');
    const body = await (await fetch(`${lab.url}/runs/${id}`)).text();
    expect(body).not.toContain('Incorrect API key');
    expect(body).not.toContain('abcd');
    const { error } = await settle(fromSSE(`${lab.url}/runs/${id}`));
    expect(error).toBeInstanceOf(RunFailedError);
    expect(error).toMatchObject({ remoteName: 'ApiError', remoteCode: upstream.code });
  });
});
