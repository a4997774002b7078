import { HttpAgent } from '@ag-ui/client';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.ts';
import { agUiHandler } from '../../src/ag-ui/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import {
  type RedisRunEventStore,
  redisRunEventStore,
  redisSessionStore,
} from '../../src/stores/redis/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import type { Listening } from './support/listen.ts';
import { serveFetch } from './support/serve-fetch.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:ag-ui-owners:${process.pid}:${Date.now()}:`;
const admin = new Redis(url);
const closers: (() => Promise<void>)[] = [];
const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(async () => {
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

const actorOf = (request: Request) => ({ id: request.headers.get('x-user') ?? 'anonymous' });
const clientOf = (server: string, user: string, threadId: string) =>
  new HttpAgent({ url: server, threadId, headers: { 'x-user': user } });
/** Runs one user turn; the codes of the RUN_ERRORs it met. */
const turn = async (client: HttpAgent, text: string) => {
  const errors: string[] = [];
  client.addMessage({ id: crypto.randomUUID(), role: 'user', content: text });
  await client
    .runAgent(undefined, { onRunErrorEvent: ({ event }) => void errors.push(event.code ?? '') })
    .catch(() => undefined);
  return errors;
};

describe('agUiHandler: a thread’s owner is read from shared state on every app server (R9)', () => {
  it('a server that never saw alice’s thread does not let mallory claim it, and lets alice in', async () => {
    const model = scriptedModel(Array.from({ length: 10 }, () => ({ text: 'ok' })));
    const sessions = redisSessionStore({ url, prefix: `${prefix}s:` });
    closers.push(() => sessions.close());
    const agent = new Agent({ model, sessions });
    // Two app servers: each its own registry on the shared Redis run store.
    const serverOf = async () => {
      const store: RedisRunEventStore = redisRunEventStore({ url, prefix: `${prefix}r:` });
      const runs = new RunRegistry({ eventStore: store });
      closers.push(async () => {
        runs.close();
        await store.close();
      });
      const server = await serveFetch(agUiHandler(agent, { actor: actorOf, runs }));
      servers.push(server);
      return server.url;
    };
    const first = await serverOf();
    const second = await serverOf();
    const threadId = `thread-${crypto.randomUUID()}`;

    expect(await turn(clientOf(first, 'alice', threadId), 'Hello')).toEqual([]);
    // Mallory on the server that never served this thread.
    expect(await turn(clientOf(second, 'mallory', threadId), 'Hi')).toEqual(['thread_not_found']);
    // Alice is still welcome there.
    expect(await turn(clientOf(second, 'alice', threadId), 'Again')).toEqual([]);
    expect(model.requests).toHaveLength(2);
  });

  it('a thread first used on the second server belongs to its first actor on the first one too', async () => {
    const model = scriptedModel(Array.from({ length: 10 }, () => ({ text: 'ok' })));
    const sessions = redisSessionStore({ url, prefix: `${prefix}s2:` });
    closers.push(() => sessions.close());
    const agent = new Agent({ model, sessions });
    const first = await serveFetch(agUiHandler(agent, { actor: actorOf }));
    const second = await serveFetch(agUiHandler(agent, { actor: actorOf }));
    servers.push(first, second);
    const threadId = `thread-${crypto.randomUUID()}`;
    // Bob uses the thread first, on the second server: it is his on the first server too.
    expect(await turn(clientOf(second.url, 'bob', threadId), 'Mine')).toEqual([]);
    expect(await turn(clientOf(first.url, 'carol', threadId), 'Mine?')).toEqual(['thread_not_found']);
    expect(await turn(clientOf(first.url, 'bob', threadId), 'Still mine')).toEqual([]);
  });
});
