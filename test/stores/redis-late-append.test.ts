import { randomUUID } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SessionStoreError, user } from '../../src/index.ts';
import { redisSessionStore } from '../../src/stores/redis/index.ts';
import { serviceAvailable } from './support/service-available.ts';

const up = await serviceAvailable('Redis', 6379);

/** A proxy to Redis whose link can freeze (bytes dropped, sockets open) and come back. */
async function flakyLink(): Promise<{ port: number; freeze(): void; restore(): void; close(): void }> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    if (frozen) return void client.pause();
    const upstream = connect(6379, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('data', (chunk) => void (frozen || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (frozen || client.write(chunk)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const dropAll = () => sockets.forEach((socket) => socket.destroy());
  return {
    port,
    freeze: () => void (frozen = true),
    // The link comes back: the frozen connection drops, the client reconnects.
    restore: () => {
      frozen = false;
      dropAll();
    },
    close: () => (dropAll(), server.close()),
  };
}

// An append that ended in SessionStoreError was "never acknowledged"; callers re-read and retry.
// ioredis resends the commands that were in flight when a connection drops, timed-out ones too, so
// before, the append landed once the link came back, after the caller had re-read it as absent.
describe.skipIf(!up)('redis: an append that timed out on a frozen link', () => {
  it('does not land when the link comes back', async () => {
    const link = await flakyLink();
    const prefix = `rxagent-late:${randomUUID()}:`;
    const store = redisSessionStore({
      url: `redis://127.0.0.1:${link.port}`,
      prefix,
      connectTimeoutMs: 300,
      queryTimeoutMs: 300,
    });
    const direct = redisSessionStore({ url: 'redis://127.0.0.1:6379', prefix });
    try {
      await store.append('s', [user('first')]);
      link.freeze();
      const failed = await store.append('s', [user('told it failed')]).catch((error: unknown) => error);
      expect(SessionStoreError.is(failed), String(failed)).toBe(true);
      expect((await direct.get('s'))?.messages.map((m) => m.content)).toEqual(['first']);
      link.restore();
      // The reconnected client works again, and the abandoned append stayed abandoned.
      let next: unknown;
      for (let attempt = 0; attempt < 20; attempt += 1) {
        next = await store.append('s', [user('after')]).catch((error: unknown) => error);
        if (!(next instanceof Error)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(next, String(next)).toMatchObject({ version: 2 });
      expect((await direct.get('s'))?.messages.map((m) => m.content)).toEqual(['first', 'after']);
    } finally {
      await direct.delete('s');
      await Promise.all([store.close(), direct.close()]);
      link.close();
    }
  });
});
