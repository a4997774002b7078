import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { type DurableRuns, type DurableRunsOptions, durableRuns } from '../../../src/bullmq/index.ts';
import { type RunKeys, runKeys } from '../../../src/bullmq/run-keys.ts';
import {
  type RedisRunEventStore,
  type RedisSessionStore,
  redisRunEventStore,
  redisSessionStore,
} from '../../../src/stores/redis/index.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** What a worker process of a test is told (through RXAGENT_TEST). */
export interface WorkerConfig {
  prefix: string;
  queueName: string;
  baseURL: string;
  lockMs: number;
  stalledIntervalMs: number;
  maxStalledCount?: number;
}

/** A worker process: its exit, and SIGKILL or SIGTERM. */
export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

/** One test's queue, stores and app server (a `DurableRuns` in this process), all under a fresh prefix. */
export interface DurableSetup {
  config: WorkerConfig;
  sessions: RedisSessionStore;
  events: RedisRunEventStore;
  runs: DurableRuns;
  /** A plain client for looking at Redis. */
  redis: Redis;
  /** rxagent's and BullMQ's keys of the setup's queue. */
  keys: RunKeys;
  /** Another app server: its own stores and `DurableRuns` on the same queue. */
  appServer(options?: Partial<DurableRunsOptions>): DurableRuns;
  spawnWorker(): WorkerProcess;
  /** Closes everything opened here, kills the worker processes left and deletes the test's keys. */
  close(): Promise<void>;
}

export function durableSetup(
  baseURL: string,
  options: Partial<DurableRunsOptions> = {},
  worker: Partial<WorkerConfig> = {},
): DurableSetup {
  const config: WorkerConfig = {
    prefix: `rxbq-${randomUUID().slice(0, 8)}`,
    queueName: 'runs',
    baseURL,
    lockMs: 1_500,
    stalledIntervalMs: 1_000,
    ...worker,
  };
  const closers: (() => Promise<unknown>)[] = [];
  const children: ChildProcess[] = [];
  const stores = () => {
    const sessions = redisSessionStore({ url: REDIS_URL, prefix: `${config.prefix}:session:` });
    const events = redisRunEventStore({ url: REDIS_URL, prefix: `${config.prefix}:run:`, blockMs: 100 });
    closers.push(
      () => sessions.close(),
      () => events.close(),
    );
    return { sessions, events };
  };
  const open = (more: Partial<DurableRunsOptions> = {}) => {
    const { sessions, events } = stores();
    const runs = durableRuns({
      connection: { host: '127.0.0.1', port: 6379 },
      queueName: config.queueName,
      prefix: config.prefix,
      sessions,
      events,
      lockMs: config.lockMs,
      stalledIntervalMs: config.stalledIntervalMs,
      ...options,
      ...more,
    });
    return { sessions, events, runs };
  };
  const appServer = (more: Partial<DurableRunsOptions> = {}) => {
    const { runs } = open(more);
    closers.unshift(() => runs.close());
    return runs;
  };
  const { sessions, events, runs } = open();
  const redis = new Redis(REDIS_URL);
  return {
    config,
    sessions,
    events,
    runs,
    redis,
    keys: runKeys(config.prefix, config.queueName),
    appServer,
    spawnWorker() {
      const child = spawn(
        process.execPath,
        ['--conditions=rxagent-source', 'test/bullmq/support/worker.ts'],
        {
          cwd: root,
          env: { ...process.env, RXAGENT_TEST: JSON.stringify(config) },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      children.push(child);
      let output = '';
      child.stdout!.setEncoding('utf8').on('data', (part: string) => (output += part));
      child.stderr!.setEncoding('utf8').on('data', (part: string) => (output += part));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      return { child, exited, output: () => output };
    },
    async close() {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await runs.close();
      for (const close of closers) await close();
      const doomed: string[] = [];
      for (let cursor = '0'; ;) {
        const [next, found] = await redis.scan(cursor, 'MATCH', `${config.prefix}:*`, 'COUNT', 1000);
        doomed.push(...found);
        cursor = next;
        if (cursor === '0') break;
      }
      if (doomed.length > 0) await redis.del(...doomed);
      await redis.quit();
    },
  };
}

/** Runs `use` with a BullMQ handle on the setup's queue, closed after. */
export async function withQueue<T>(s: DurableSetup, use: (queue: Queue) => Promise<T>): Promise<T> {
  const queue = new Queue(s.config.queueName, {
    connection: { host: '127.0.0.1', port: 6379 },
    prefix: s.config.prefix,
  });
  try {
    return await use(queue);
  } finally {
    await queue.close();
  }
}
