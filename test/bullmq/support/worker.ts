// A worker process of durable runs (test/bullmq/): runs the agents `chat` (an OpenAI-compatible
// model at a local test server) and `refund` (with a tool that needs approval) from the queue
// named in RXAGENT_TEST; SIGTERM closes it cleanly.
import { durableRuns } from '../../../src/bullmq/index.ts';
import { redisRunEventStore, redisSessionStore } from '../../../src/stores/redis/index.ts';
import { Redis } from 'ioredis';
import { chatAgent, refundAgent } from './chat-agent.ts';
import type { WorkerConfig } from './durable-setup.ts';

const config = JSON.parse(process.env['RXAGENT_TEST'] ?? '{}') as WorkerConfig;
const url = 'redis://127.0.0.1:6379';
const sessions = redisSessionStore({ url, prefix: `${config.prefix}:session:` });
const events = redisRunEventStore({ url, prefix: `${config.prefix}:run:`, blockMs: 100 });
const runs = durableRuns({
  connection: { host: '127.0.0.1', port: 6379 },
  queueName: config.queueName,
  prefix: config.prefix,
  sessions,
  events,
  lockMs: config.lockMs,
  stalledIntervalMs: config.stalledIntervalMs,
  ...(config.maxStalledCount === undefined ? {} : { maxStalledCount: config.maxStalledCount }),
});
const counter = new Redis(url);
// Refunds are counted outside the process (it may be killed): INCR in Redis.
const refund = refundAgent(config.baseURL, sessions, (amount) =>
  counter
    .multi()
    .incr(`${config.prefix}:refunds`)
    .hincrby(`${config.prefix}:refunds-by-amount`, String(amount), 1)
    .exec(),
).agent;
const worker = runs.work({ chat: chatAgent(config.baseURL, sessions), refund }, { concurrency: 2 });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void (async () => {
    await worker.close();
    await runs.close();
    await Promise.all([events.close(), sessions.close(), counter.quit()]);
    process.stdout.write('closed\n');
    process.exit(0);
  })();
});
