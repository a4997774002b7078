import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent } from '../../../src/agent/index.ts';
import { chatHandler, RunRegistry } from '../../../src/http/index.ts';
import {
  type RedisChatRuns,
  type RedisRunEventStore,
  redisChatRuns,
  redisRunEventStore,
} from '../../../src/stores/redis/index.ts';
import { scriptedModel } from '../../../src/testing/index.ts';
import type { Listening } from '../support/listen.ts';
import { serveFetch } from '../support/serve-fetch.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:chat-xs:${process.pid}:${Date.now()}:`;
const closers: (RedisRunEventStore | RedisChatRuns)[] = [];
const registries: RunRegistry[] = [];
const servers: Listening[] = [];

afterAll(async () => {
  for (const registry of registries) registry.close();
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(closers.map((closer) => closer.close()));
  const admin = new Redis(url);
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

async function appServer(agent: Agent) {
  const eventStore = redisRunEventStore({ url, prefix: `${prefix}runs:`, blockMs: 100, leaseMs: 600 });
  const chatRuns = redisChatRuns({ url, prefix: `${prefix}chats:` });
  closers.push(eventStore, chatRuns);
  const registry = new RunRegistry({ eventStore });
  registries.push(registry);
  const server = await serveFetch(chatHandler(agent, { registry, chatRuns }));
  servers.push(server);
  return server.url;
}

describe('useChat across app servers (redisChatRuns)', () => {
  it('a resume GET on another server than the POST replays the running reply; a Stop there stops it', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i} `);
    const agent = new Agent({ model: scriptedModel([{ text: words }, { text: words }], { delayMs: 40 }) });
    const first = await appServer(agent);
    const second = await appServer(agent);
    const post = () =>
      fetch(`${first}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          id: 'chat-x',
          messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Talk' }] }],
          trigger: 'submit-message',
        }),
      });
    const started = await post();
    expect(started.status).toBe(200);
    const reader = started.body!.getReader();
    await reader.read();
    await reader.cancel();
    const resumed = await fetch(`${second}/api/chat/chat-x/stream`);
    expect(resumed.status).toBe(200);
    const body = await resumed.text();
    expect(body).toContain('w39 ');
    expect(body).toContain('"type":"finish"');
    await post().then((response) => response.body?.cancel());
    const stop = await fetch(`${second}/api/chat/chat-x/stream`, { method: 'DELETE' });
    expect(await stop.json()).toEqual({ stopped: true });
  }, 20_000);
});
