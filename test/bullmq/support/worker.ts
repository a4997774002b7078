// A worker process of durable runs (test/bullmq/): runs the agent `chat` (an OpenAI-compatible
// model at a local test server) from the queue named in RXAGENT_TEST; SIGTERM closes it cleanly.
import { Agent } from '../../../src/agent/index.ts';
import { durableRuns } from '../../../src/bullmq/index.ts';
import { openai } from '../../../src/providers/openai/index.ts';
import { redisRunEventStore, redisSessionStore } from '../../../src/stores/redis/index.ts';
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
});
const agent = new Agent({
  model: openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL: config.baseURL }),
  sessions,
});
const worker = runs.work({ chat: agent }, { concurrency: 2 });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void (async () => {
    await worker.close();
    await runs.close();
    await Promise.all([events.close(), sessions.close()]);
    process.stdout.write('closed\n');
    process.exit(0);
  })();
});
