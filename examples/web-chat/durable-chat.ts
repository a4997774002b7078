/**
 * The web chat on durable runs (`npm run web -- --durable`): this process serves the page and the
 * endpoints and starts runs on a BullMQ queue in Redis; two worker processes
 * (durable-worker.ts) run them, checkpointing each step in the session on Redis. Kill the worker
 * holding a reply mid-way and the other one finishes it; a dead worker is started again, as a
 * process manager would.
 *
 * Env: REDIS_URL (default redis://127.0.0.1:6379), WEB_CHAT_PREFIX (default rxagent-web-chat:),
 * RUN_LOCK_MS / RUN_STALLED_MS (how soon a dead worker's run moves on), and the model's (server.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { durableRuns, type DurableRuns } from 'rxagent/bullmq';
import { redisRunEventStore, redisSessionStore } from 'rxagent/redis';
import type { ChatBackend } from './web-chat.ts';

/** Where the app server and its workers meet. */
export interface DurableChatSettings {
  redisUrl: string;
  prefix: string;
  lockMs?: number;
  stalledIntervalMs?: number;
}

const positive = (value: string | undefined): number | undefined =>
  value !== undefined && Number(value) > 0 ? Number(value) : undefined;

/** The settings from the environment (see the top of this file). */
export function durableChatSettings(env: NodeJS.ProcessEnv): DurableChatSettings {
  const lockMs = positive(env.RUN_LOCK_MS);
  const stalledIntervalMs = positive(env.RUN_STALLED_MS);
  return {
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix: env.WEB_CHAT_PREFIX ?? 'rxagent-web-chat:',
    ...(lockMs ? { lockMs } : {}),
    ...(stalledIntervalMs ? { stalledIntervalMs } : {}),
  };
}

/** The durable runs and the stores they share, as every process of the chat opens them. */
export function openDurableChat(settings: DurableChatSettings) {
  const { redisUrl: url, prefix } = settings;
  const sessions = redisSessionStore({ url, prefix: `${prefix}session:` });
  const events = redisRunEventStore({ url, prefix: `${prefix}run:` });
  const { hostname, port } = new URL(url);
  const runs: DurableRuns = durableRuns({
    connection: { host: hostname, port: Number(port || 6379) },
    prefix: `${prefix}queue`,
    sessions,
    events,
    agents: ['chat'],
    ...(settings.lockMs ? { lockMs: settings.lockMs } : {}),
    ...(settings.stalledIntervalMs ? { stalledIntervalMs: settings.stalledIntervalMs } : {}),
  });
  return {
    runs,
    sessions,
    close: async () => {
      await runs.close();
      await Promise.all([sessions.close(), events.close()]);
    },
  };
}

/**
 * The chat's runs on durable runs, with `workers` worker processes started (and started again when
 * one dies) beside this one.
 */
export function durableChat(settings: DurableChatSettings, workers = 2): ChatBackend {
  const { runs, sessions, close } = openDurableChat(settings);
  const script = fileURLToPath(new URL('./durable-worker.ts', import.meta.url));
  // The workers read their settings from their environment: these settings, not this process's.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    REDIS_URL: settings.redisUrl,
    WEB_CHAT_PREFIX: settings.prefix,
    RUN_LOCK_MS: settings.lockMs === undefined ? '' : String(settings.lockMs),
    RUN_STALLED_MS: settings.stalledIntervalMs === undefined ? '' : String(settings.stalledIntervalMs),
  };
  const children = new Set<ChildProcess>();
  let closing = false;
  let restart: NodeJS.Timeout | undefined;
  const startWorker = (): void => {
    if (closing) return;
    const child = spawn(process.execPath, [...process.execArgv, script], { stdio: 'inherit', env });
    children.add(child);
    child.once('exit', () => {
      children.delete(child);
      // A worker that died (a crash, a kill) is started again; its runs went on elsewhere meanwhile.
      if (!closing) restart = setTimeout(startWorker, 500);
    });
  };
  /** SIGTERM (a worker hands its runs back), then SIGKILL if it has not exited within 10 s. */
  const stopWorker = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => (clearTimeout(timer), resolve()));
      child.kill('SIGTERM');
    });
  for (let i = 0; i < workers; i++) startWorker();
  return {
    runs,
    sessions,
    start: async (message, sessionId, actor) =>
      (await runs.start('chat', message, { sessionId, actor })).runId,
    check: (runId, options) => runs.check(runId, options),
    close: async () => {
      closing = true;
      clearTimeout(restart);
      await Promise.all([...children].map(stopWorker));
      await close();
    },
  };
}
