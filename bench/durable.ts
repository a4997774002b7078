// Durable runs under random kills, and what a checkpoint costs. Needs Redis on REDIS_URL
// (default redis://127.0.0.1:6379); prints "skipped" without it.
//
// 1. Chaos: BENCH_DURABLE_RUNS (default 1,000) runs of the durable example's shop agent
//    (examples/durable: a `check_stock` call, an idempotent one, and a `place_order` call, not
//    idempotent, counted in Redis per call, then a short answer) started at once on
//    BENCH_DURABLE_WORKERS worker processes (default 2, concurrency 16 each); a random ready worker
//    SIGKILLed about every BENCH_DURABLE_KILL_MS (default 1,500 ms), BENCH_DURABLE_KILLS times
//    (default 40) or until every run ended, each killed worker started again. Reports runs
//    completed, duplicate executions of `place_order` (must be 0), lost runs (not ended within
//    BENCH_DURABLE_TIMEOUT_MS, default 300 s, of the start: must be 0, each listed with its
//    status), calls interrupted, and runs per second per worker (the whole run, kills included).
// 2. Checkpoint overhead: BENCH_DURABLE_SEQUENTIAL (default 100) runs one after the other, each
//    watched to its end, on one worker without kills, against the same agent (same scripted model
//    server, same tools, sessions on the same Redis) in this process on a `RunRegistry`: ms per step
//    for each and their difference (the queue hop, the checkpoints and the event store).
//
// Run: BENCH_MODES=durable npm run bench, or npx node --conditions=rxagent-source bench/durable.ts
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { lastValueFrom, type Observable } from 'rxjs';
import { shopAgent } from '../examples/durable/agent.ts';
import { openDurableApp } from '../examples/durable/app.ts';
import { RunRegistry } from '../src/http/index.ts';
import { openai } from '../src/providers/openai/index.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const runsTotal = Number(process.env.BENCH_DURABLE_RUNS ?? 1000);
const workerCount = Number(process.env.BENCH_DURABLE_WORKERS ?? 2);
const killEveryMs = Number(process.env.BENCH_DURABLE_KILL_MS ?? 1500);
const maxKills = Number(process.env.BENCH_DURABLE_KILLS ?? 40);
const timeoutMs = Number(process.env.BENCH_DURABLE_TIMEOUT_MS ?? 300_000);
const sequential = Number(process.env.BENCH_DURABLE_SEQUENTIAL ?? 100);
const workerScript = fileURLToPath(new URL('../examples/durable/worker.ts', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg()[0]!.toFixed(2);

const probe = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true });
probe.on('error', () => undefined);
if (
  !(await probe.connect().then(
    () => true,
    () => false,
  ))
) {
  console.log(`durable: skipped (no Redis at ${redisUrl})`);
  process.exit(0);
}

// The scripted model: an OpenAI-compatible stream on 127.0.0.1, no delays.
const frame = (delta: unknown, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const model = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (part: string) => (body += part));
  req.on('end', () => {
    const { messages } = JSON.parse(body) as { messages: { role: string; content?: unknown }[] };
    const n = /order (\d+)/.exec(String(messages.find((m) => m.role === 'user')?.content))?.[1] ?? '0';
    const tag = /^#(\w+)/.exec(String(messages.find((m) => m.role === 'user')?.content))?.[1] ?? 'x';
    const step = messages.filter((m) => m.role === 'assistant').length + 1;
    const frames = [frame({ role: 'assistant', content: '' })];
    if (step === 1) {
      const calls = [
        { id: `call_${tag}_${n}_stock`, name: 'check_stock', arguments: { item: `item-${n}` } },
        { id: `call_${tag}_${n}_order`, name: 'place_order', arguments: { item: `item-${n}`, quantity: 1 } },
      ];
      calls.forEach((call, index) =>
        frames.push(
          frame({
            tool_calls: [
              {
                index,
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              },
            ],
          }),
        ),
      );
      frames.push(frame({}, 'tool_calls'));
    } else {
      for (const piece of `Order ${n} is placed; thank you.`.match(/.{1,6}/g)!)
        frames.push(frame({ content: piece }));
      frames.push(frame({}, 'stop'));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`${frames.join('')}data: [DONE]\n\n`);
  });
});
model.listen(0, '127.0.0.1');
await once(model, 'listening');
const modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;

const prefix = `bench-durable-${Date.now().toString(36)}:`;
const env = {
  ...process.env,
  REDIS_URL: redisUrl,
  RXAGENT_PREFIX: prefix,
  OPENAI_BASE_URL: modelUrl,
  OPENAI_API_KEY: 'sk-bench',
  TOOL_DELAY_MS: '0',
  RUN_LOCK_MS: '2000',
  RUN_STALLED_MS: '1000',
};
const app = openDurableApp({ redisUrl, prefix, lockMs: 2000, stalledIntervalMs: 1000 });
const workers = new Set<ChildProcess>();
/** Workers that said they are ready (a kill before that would test start-up, not runs). */
const ready = new Set<ChildProcess>();
let respawn = true;

function startWorker(concurrency: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=rxagent-source', workerScript], {
    env: { ...env, WORKER_CONCURRENCY: String(concurrency) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  workers.add(child);
  child.once('exit', () => {
    workers.delete(child);
    ready.delete(child);
    if (respawn) void startWorker(concurrency);
  });
  return new Promise((resolve) => {
    child.stdout!.setEncoding('utf8').on('data', (part: string) => {
      if (!part.includes('ready')) return;
      ready.add(child);
      resolve(child);
    });
  });
}

async function stopWorkers(): Promise<void> {
  respawn = false;
  await Promise.all([...workers].map((child) => (child.kill('SIGKILL'), once(child, 'exit'))));
}

/** Polls the statuses of `runIds` until none is queued, running or awaiting, or until `deadline`. */
async function settle(runIds: readonly string[], deadline: number): Promise<Map<string, string>> {
  const ended = new Map<string, string>();
  while (ended.size < runIds.length && Date.now() < deadline) {
    const open = runIds.filter((id) => !ended.has(id));
    for (let i = 0; i < open.length; i += 200) {
      const batch = open.slice(i, i + 200);
      const statuses = await Promise.all(batch.map((id) => app.runs.status(id)));
      statuses.forEach((status, j) => {
        if (status === 'completed' || status === 'failed' || status === 'cancelled')
          ended.set(batch[j]!, status);
      });
    }
    if (ended.size < runIds.length) await sleep(500);
  }
  return ended;
}

console.log(
  `durable bench · node ${process.version} · ${availableParallelism()} cpus · load ${load()} · ` +
    `${runsTotal} runs on ${workerCount} workers, a kill every ${killEveryMs} ms · Redis ${redisUrl}`,
);

// 1. Chaos.
await Promise.all(Array.from({ length: workerCount }, () => startWorker(16)));
const started = performance.now();
const runIds = await Promise.all(
  Array.from(
    { length: runsTotal },
    async (_, n) => (await app.runs.start('shop', `#chaos order ${n}`, {})).runId,
  ),
);
let kills = 0;
let killing = true;
const killer = (async () => {
  while (killing && kills < maxKills) {
    await sleep(killEveryMs * (0.5 + Math.random()));
    const alive = [...ready];
    if (!killing || alive.length === 0) continue;
    alive[Math.floor(Math.random() * alive.length)]!.kill('SIGKILL');
    kills += 1;
  }
})();
const ended = await settle(runIds, Date.now() + timeoutMs);
const seconds = (performance.now() - started) / 1000;
killing = false;
await killer;
await stopWorkers();
const completed = [...ended.values()].filter((s) => s === 'completed').length;
const unfinished = runIds.filter((id) => !ended.has(id));
const stuck = await Promise.all(
  unfinished.map(async (id) => `${id}: ${(await app.runs.status(id)) ?? 'unknown'}`),
);
if (stuck.length > 0) console.log(`  not ended within ${timeoutMs} ms:\n    ${stuck.join('\n    ')}`);
if (stuck.length > 0 && process.env.BENCH_DURABLE_DIAGNOSE === '1') {
  const queue = new Queue('rxagent-runs', {
    connection: { host: new URL(redisUrl).hostname, port: Number(new URL(redisUrl).port || 6379) },
    prefix: `${prefix}queue`,
  });
  for (const id of unfinished) {
    const job = await queue.getJob(id);
    console.log(
      id,
      await queue.getJobState(id),
      JSON.stringify({
        attemptsMade: job?.attemptsMade,
        stalled: job?.stalledCounter,
        failedReason: job?.failedReason,
        delay: job?.delay,
        processedOn: job?.processedOn,
        finishedOn: job?.finishedOn,
        returnvalue: job?.returnvalue,
      }),
    );
    const keys = await app.redis.keys(`${prefix}*${id}*`);
    console.log('  keys', keys.join(' '));
  }
  await queue.close();
  console.log(`keeping ${prefix}* for inspection`);
  process.exit(1);
}
const failed = [...ended.values()].filter((s) => s === 'failed').length;
const counts = Object.values(await app.redis.hgetall(`${prefix}orders`)).map(Number);
const duplicates = counts.filter((c) => c > 1).reduce((sum, c) => sum + c - 1, 0);
const audit = await app.audit.list();
const interrupted = audit.filter((r) => r.type === 'outcome' && r.status === 'interrupted').length;
console.log(
  `  chaos: ${completed}/${runsTotal} completed, ${failed} failed, ${runsTotal - ended.size} lost, ` +
    `${duplicates} duplicate executions of place_order (${counts.length} orders), ${interrupted} calls interrupted, ` +
    `${kills} workers SIGKILLed · ${seconds.toFixed(1)} s · ` +
    `${(completed / seconds / workerCount).toFixed(1)} runs/s per worker · load ${load()}`,
);

// 2. Checkpoint overhead per step: one worker, one run at a time, against RunRegistry in process.
respawn = true;
await startWorker(1);
respawn = false;
const timeRuns = async (run: (n: number) => Promise<void>): Promise<number> => {
  const t0 = performance.now();
  for (let n = 0; n < sequential; n++) await run(n);
  return (performance.now() - t0) / sequential / 2; // two steps per run
};
const watchToEnd = (events$: Observable<unknown>) =>
  lastValueFrom(events$, { defaultValue: undefined }).then(() => undefined);
const durableMs = await timeRuns(async (n) => {
  const { runId } = await app.runs.start('shop', `#seq order ${n}`, {});
  await watchToEnd(app.runs.attach(runId));
});
await stopWorkers();
const agent = shopAgent({
  model: openai('bench', { apiKey: 'sk-bench', baseURL: modelUrl }),
  sessions: app.sessions,
  audit: app.audit,
  redis: app.redis,
  prefix,
  toolDelayMs: 0,
});
const registry = new RunRegistry();
const inProcessMs = await timeRuns(async (n) => {
  const { id } = registry.start(({ signal }) =>
    agent.run(`#reg order ${n}`, { sessionId: `${prefix.replace(/:$/, '')}-reg-${n}`, signal }),
  );
  await watchToEnd(registry.attach(id));
});
registry.close();
console.log(
  `  per step (${sequential} runs one at a time, 2 steps each): durable ${durableMs.toFixed(2)} ms, ` +
    `in-process RunRegistry ${inProcessMs.toFixed(2)} ms: checkpoint overhead ${(durableMs - inProcessMs).toFixed(2)} ms/step · load ${load()}`,
);

await app.close();
model.close();
const cleanup = new Redis(redisUrl);
let cursor = '0';
do {
  const [next, keys] = await cleanup.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
  cursor = next;
  if (keys.length > 0) await cleanup.del(...keys);
} while (cursor !== '0');
await cleanup.quit();
probe.disconnect();
