import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A free port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A Redis server of the test's own on `port`, so an outage hurts no one else's tests (no
 * persistence: a restart forgets everything, as a cache's does). Resolves once it answers.
 */
export async function redisServer(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  const probe = new Redis({ port, host: '127.0.0.1', retryStrategy: () => 25, maxRetriesPerRequest: null });
  probe.on('error', () => undefined);
  await probe.ping();
  probe.disconnect();
  return child;
}
