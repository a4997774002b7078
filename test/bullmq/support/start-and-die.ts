// An app server that dies in `start` (test/bullmq/): its enqueue never answers, so the parent can
// SIGKILL it between `events.open` and the job reaching the queue. Prints the run id it was given.
import { Queue } from 'bullmq';
import { durableRuns } from '../../../src/bullmq/index.ts';
import { redisRunEventStore, redisSessionStore } from '../../../src/stores/redis/index.ts';
import type { WorkerConfig } from './durable-setup.ts';

const config = JSON.parse(process.env['RXAGENT_TEST'] ?? '{}') as WorkerConfig & { sessionId: string };
const url = 'redis://127.0.0.1:6379';
const events = redisRunEventStore({ url, prefix: `${config.prefix}:run:`, blockMs: 100 });
const open = events.open.bind(events);
events.open = (runId, info) => {
  open(runId, info);
  process.stdout.write(`${runId}\n`);
};
// The enqueue hangs: the process is killed while it waits.
Queue.prototype.add = () => new Promise(() => undefined);
const runs = durableRuns({
  connection: { host: '127.0.0.1', port: 6379 },
  queueName: config.queueName,
  prefix: config.prefix,
  sessions: redisSessionStore({ url, prefix: `${config.prefix}:session:` }),
  events,
  agents: ['chat'],
});
void runs.start('chat', 'Hello', { sessionId: config.sessionId });
