/**
 * A worker process of the durable example: takes runs off the queue and runs them, checkpointing
 * each step in the run's session. Start as many as you like, on as many machines; kill one mid-run
 * and another resumes its runs from their last checkpoint. SIGTERM (a deploy) hands its runs back
 * at their last checkpoint, then exits.
 *
 *   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 npx node --conditions=rxagent-source examples/durable/worker.ts
 *
 * Env: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL (the model), WORKER_CONCURRENCY (default 8),
 * TOOL_DELAY_MS, and the shared settings in app.ts (REDIS_URL, RXAGENT_PREFIX, ...).
 */
import { configFrom, openDurableApp } from './app.ts';
import { modelFrom, shopAgent } from './agent.ts';

const app = openDurableApp(configFrom(process.env));
const { sessions, audit, redis, config } = app;
const toolDelayMs = Number(process.env.TOOL_DELAY_MS ?? 200);
const shop = shopAgent({
  model: modelFrom(process.env),
  sessions,
  audit,
  redis,
  prefix: config.prefix,
  toolDelayMs,
});
const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 8);
const worker = app.runs.work({ shop }, { concurrency });
console.log(`worker ${process.pid} ready (concurrency ${concurrency}, prefix ${config.prefix})`);

// A deploy's SIGTERM: stop taking runs, hand the held ones back at their last checkpoint, exit.
const stop = () =>
  void worker
    .close()
    .then(() => app.close())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('worker: closing failed', error);
        process.exit(1);
      },
    );
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
