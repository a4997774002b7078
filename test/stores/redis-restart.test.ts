import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { redisSessionStore } from '../../src/stores/redis/index.ts';
import { expectNothingLostAcrossDrop } from '../sessions/expect-nothing-lost.ts';
import { closedPort, serviceAvailable } from './support/service-available.ts';

// A private redis-server (not the shared one on 6379) that this test restarts for real: its
// append-only file is fsynced on every write, so what it acknowledged survives the restart, and
// the restart also empties its script cache (the store must load its Lua script again).
const up = await serviceAvailable('Redis', 6379);
const port = await closedPort();
let dir: string;
let server: ChildProcess | undefined;

function start(): Promise<void> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes'];
  server = spawn('redis-server', [...args, '--appendfsync', 'always', '--dir', dir], { stdio: 'ignore' });
  return waitFor(true);
}

async function waitFor(answering: boolean): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => undefined);
    const ok = await probe.connect().then(
      () => probe.ping().then(() => true),
      () => false,
    );
    probe.disconnect();
    if (ok === answering) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on ${port} did not ${answering ? 'start' : 'stop'}`);
}

async function stop(): Promise<void> {
  const exited = new Promise((resolve) => server?.once('exit', resolve));
  server?.kill('SIGTERM');
  await exited;
}

// Needs the redis-server binary; skipped like the other Redis suites when Redis is not installed.
describe.skipIf(!up)('redisSessionStore across a real server restart', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-redis-'));
    await start();
  });
  afterAll(async () => {
    if (server?.exitCode === null) await stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged append, fails the rest with SessionStoreError, and works after', async () => {
    const store = redisSessionStore({ url: `redis://127.0.0.1:${port}`, prefix: `t:${randomUUID()}:` });
    await expectNothingLostAcrossDrop(store, store, async () => {
      await stop();
      await start();
    });
    await store.close();
  }, 60_000);
});
