/**
 * Redis restarted under durable runs: a private redis-server (append-only file, fsync on every
 * write, as a deployment that keeps its queue runs it) is SIGKILLed mid-run and started again on
 * its port; the worker and app server processes (examples/durable) reconnect, and every run
 * completes, no tool twice.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { from, lastValueFrom, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { textDeltas } from '../../src/agent/text-deltas.ts';
import { fromSSE } from '../../src/http/index.ts';
import { type ChaosModel, type ChaosRequest, startChaosModel } from './support/chaos-model.ts';
import { type ExampleProcess, startExample } from './support/example-process.ts';

const RUNS = 4;
const redisServerPath = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) =>
  existsSync(path),
);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pieces = (text: string) => text.match(/.{1,6}/gs) ?? [];
const finalText = (n: number) => `Order ${n} is placed, and the queue outlived its Redis going away.`;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!redisServerPath)('durable runs across a Redis restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-redis-'));
  let port: number;
  let redisServer: ChildProcess;
  let model: ChaosModel;
  let app: ExampleProcess & { match: RegExpExecArray };
  let worker: ExampleProcess;

  const startRedis = async () => {
    redisServer = spawn(
      redisServerPath!,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes'].concat([
        '--appendfsync',
        'always',
        '--save',
        '',
      ]),
      { stdio: 'ignore' },
    );
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50 });
    probe.on('error', () => undefined);
    for (let i = 0; i < 100; i++) {
      if (
        (await probe.connect().then(
          () => probe.ping(),
          () => null,
        )) === 'PONG'
      )
        break;
      await sleep(50);
    }
    probe.disconnect();
  };

  const script = (request: ChaosRequest) => {
    const n = Number(
      /order (\d+)/.exec(String(request.messages.find((m) => m.role === 'user')?.content))?.[1],
    );
    const step = request.messages.filter((m) => m.role === 'assistant').length + 1;
    return step === 1
      ? {
          text: pieces(`Placing order ${n}. `),
          toolCalls: [
            {
              id: `call_${n}_order`,
              name: 'place_order',
              arguments: JSON.stringify({ item: `item-${n}`, quantity: 1 }),
            },
          ],
          delayMs: 40,
        }
      : // Slow enough (about 1.5 s) that Redis goes away while it streams.
        { text: pieces(finalText(n)), delayMs: 100 };
  };

  beforeAll(async () => {
    port = await freePort();
    await startRedis();
    model = await startChaosModel(script);
    const env = {
      ...process.env,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      RXAGENT_PREFIX: 'restart:',
      OPENAI_BASE_URL: `${model.url}/v1`,
      OPENAI_API_KEY: 'sk-test',
      RUN_LOCK_MS: '2000',
      RUN_STALLED_MS: '1000',
      TOOL_DELAY_MS: '300',
      PORT: '0',
    };
    [app, worker] = await Promise.all([
      startExample('examples/durable/server.ts', env, /http:\/\/127\.0\.0\.1:\d+/),
      startExample('examples/durable/worker.ts', env, /worker \d+ ready/),
    ]);
  }, 60_000);

  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    app?.child.kill('SIGKILL');
    redisServer?.kill('SIGKILL');
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every run completes, each order placed at most once, each watcher reads its text once to the end', async () => {
    const base = app.match[0];
    const runs = await Promise.all(
      Array.from({ length: RUNS }, async (_, n) => {
        const answer = await fetch(`${base}/api/runs`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: `order ${n}` }),
        });
        expect(answer.status).toBe(201);
        const { runId } = (await answer.json()) as { runId: string };
        const events: AgentEvent[] = [];
        const watched = lastValueFrom(fromSSE(`${base}/api/runs/${runId}`).pipe(tap((e) => events.push(e))), {
          defaultValue: undefined,
        }).then(
          () => ({ events, error: undefined as unknown }),
          (error: unknown) => ({ events, error }),
        );
        return { runId, watched };
      }),
    );
    // Redis dies mid-run, asserted: once every run has placed its order (past its first checkpoint,
    // its tool or its last reply under way) and before any has completed.
    const probe = new Redis(port, '127.0.0.1');
    const placedBy = Date.now() + 30_000;
    while ((await probe.hlen('restart:orders')) < RUNS && Date.now() < placedBy) await sleep(50);
    await probe.quit();
    const beforeKill = await Promise.all(
      runs.map((run) =>
        fetch(`${base}/api/runs/${run.runId}/status`).then(
          async (answer) => ((await answer.json()) as { status?: string }).status,
        ),
      ),
    );
    redisServer.kill('SIGKILL');
    expect(beforeKill, 'every run under way when Redis died').toEqual(runs.map(() => 'running'));
    await once(redisServer, 'exit');
    await sleep(1000);
    await startRedis();

    const status = (runId: string) =>
      fetch(`${base}/api/runs/${runId}/status`)
        .then(async (answer) => ((await answer.json()) as { status?: string }).status)
        .catch(() => undefined);
    const deadline = Date.now() + 60_000;
    let statuses: (string | undefined)[] = [];
    while (Date.now() < deadline) {
      statuses = await Promise.all(runs.map((run) => status(run.runId)));
      if (statuses.every((s) => s === 'completed' || s === 'failed' || s === 'cancelled')) break;
      await sleep(250);
    }
    expect(statuses).toEqual(runs.map(() => 'completed'));
    const redis = new Redis(port, '127.0.0.1');
    const orders = await redis.hgetall('restart:orders');
    await redis.quit();
    expect(Object.values(orders).filter((count) => Number(count) > 1)).toEqual([]);
    const watched = await Promise.all(runs.map((run) => run.watched));
    const report = await Promise.all(
      watched.map(async ({ events, error }) => ({
        error: error === undefined ? undefined : `${String(error)} ${JSON.stringify(error)}`,
        types: events.map((e) => e.type).join(','),
        text: (await lastValueFrom(from(events).pipe(textDeltas(), toArray()))).join(''),
      })),
    );
    report.forEach((watcher, n) => {
      expect(watcher.error, `watcher of run ${n} (events ${watcher.types})`).toBeUndefined();
      expect(watcher.text).toBe(`Placing order ${n}. ${finalText(n)}`);
    });
  }, 90_000);
});
