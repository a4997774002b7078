import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { memoryEventStore } from '../../src/mcp/memory-event-store.ts';
import { type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { servedRegistry } from './served-registry.ts';

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function initialize(
  url: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; session: string | null }> {
  const reply = await fetch(url, {
    method: 'POST',
    headers: { ...headers, ...extra },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
  await reply.arrayBuffer();
  return { status: reply.status, session: reply.headers.get('mcp-session-id') };
}

async function ping(
  url: string,
  session: string,
  extra: Record<string, string> = {},
  method = 'POST',
): Promise<number> {
  const reply = await fetch(url, {
    method,
    headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', ...extra },
    ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) } : {}),
  });
  await reply.arrayBuffer();
  return reply.status;
}

describe('serveMcp HTTP sessions are bounded (M2)', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp(servedRegistry().registry, {
      name: 'bounded',
      version: '1.0.0',
      http: { port: 0, sessionIdleMs: 400, maxSessions: 3 },
    });
  });
  afterAll(() => server?.close());

  it('past maxSessions a new session is 503; an idle session expires and frees its place', async () => {
    const url = server.url as string;
    const opened = await Promise.all([initialize(url), initialize(url), initialize(url)]);
    expect(opened.map((each) => each.status)).toEqual([200, 200, 200]);
    expect((await initialize(url)).status).toBe(503);
    const [kept, ...others] = opened.map((each) => each.session as string);
    // One session stays busy; the other two go idle and expire.
    for (let i = 0; i < 8; i++) {
      expect(await ping(url, kept as string)).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    for (const session of others) expect(await ping(url, session)).toBe(404);
    expect((await initialize(url)).status).toBe(200);
  });
});

describe('a session belongs to the actor that opened it (m5)', () => {
  let server: McpServerHandle;
  const users: Record<string, { id: string }> = { a: { id: 'user-a' }, b: { id: 'user-b' } };
  beforeAll(async () => {
    server = await serveMcp(servedRegistry().registry, {
      name: 'owned',
      version: '1.0.0',
      http: { port: 0 },
      authenticate: ({ bearerToken }) => (bearerToken ? (users[bearerToken] ?? null) : null),
    });
  });
  afterAll(() => server?.close());

  it('another actor can neither use nor delete it', async () => {
    const url = server.url as string;
    const asA = { authorization: 'Bearer a' };
    const asB = { authorization: 'Bearer b' };
    const { session } = await initialize(url, asA);
    expect(await ping(url, session as string, asB)).toBe(404);
    expect(await ping(url, session as string, asB, 'DELETE')).toBe(404);
    expect(await ping(url, session as string, asA)).toBe(200);
  });
});

describe('the event store of a session is bounded in bytes and age (M2)', () => {
  const message = (id: number, bytes: number): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id,
    result: { pad: 'x'.repeat(bytes) },
  });

  it('keeps the newest events within maxBytes', async () => {
    const store = memoryEventStore({ maxBytes: 1_000_000 });
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(await store.storeEvent('s', message(i, 100_000)));
    const replayed: unknown[] = [];
    await store.replayEventsAfter(ids[0] as string, { send: async (_id, sent) => void replayed.push(sent) });
    expect(replayed.length).toBeGreaterThan(0);
    expect(replayed.length).toBeLessThanOrEqual(10);
    expect(replayed.at(-1)).toEqual(message(99, 100_000));
  });

  it('forgets events older than maxAgeMs', async () => {
    const store = memoryEventStore({ maxAgeMs: 50 });
    const first = await store.storeEvent('s', message(1, 10));
    await store.storeEvent('s', message(2, 10));
    await new Promise((resolve) => setTimeout(resolve, 80));
    const last = await store.storeEvent('s', message(3, 10));
    const replayed: unknown[] = [];
    await store.replayEventsAfter(first, { send: async (_id, sent) => void replayed.push(sent) });
    expect(replayed).toEqual([message(3, 10)]);
    expect(await store.getStreamIdForEventId?.(last)).toBe('s');
  });
});
