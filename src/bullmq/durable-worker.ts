import { type ConnectionOptions, type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { cancelDurableRun } from '../agent/durable/index.ts';
import type { Agent } from '../agent/index.ts';
import { RunCancelledError, RunLostError } from '../core/index.ts';
import { HandOver } from './hand-over.ts';
import { processRun } from './process-run.ts';
import { endRun, type RunEnv } from './run-env.ts';
import { runOfJob } from './run-job.ts';
import type { RunKeys } from './run-keys.ts';

/** A worker of durable runs in this process. */
export interface DurableWorker {
  /**
   * Stops taking runs, hands the runs it holds back to the queue at their last checkpoint (another
   * worker resumes each; not a failure) and closes its connections. For SIGTERM. A run whose tool
   * calls are in `execute` is handed back once they end (their outcomes recorded: not run again,
   * not in doubt), or after `closeGraceMs`; any other at once.
   */
  close(): Promise<void>;
}

/** How a worker reaches Redis and BullMQ's timings. */
export interface WorkerSettings {
  queueName: string;
  prefix: string;
  /** For BullMQ's own connections (it duplicates a client it is given). */
  connection: ConnectionOptions;
  /** rxagent's own client: a subscriber for cancels is duplicated from it. */
  client: Redis;
  keys: RunKeys;
  lockMs: number;
  stalledIntervalMs: number;
  maxStalledCount: number;
  /** How long `close` lets a run's tool calls in `execute` finish before it hands the run back. */
  closeGraceMs: number;
}

/**
 * A BullMQ worker of durable runs: each job is one attempt at a run (`processRun`), aborted on a
 * cancel heard on the queue's cancel channel, on a lock BullMQ could not renew, and on `close`.
 * BullMQ's lock on the job is the run's lock (a run has one job all its life), and its stalled-job
 * recovery gives a dead worker's runs to the others.
 */
export function startWorker(
  env: RunEnv,
  settings: WorkerSettings,
  agents: Readonly<Record<string, Agent>>,
  concurrency: number,
): DurableWorker {
  // The runs this worker holds: what stops each attempt, and how many of its calls are in `execute`.
  const held = new Map<string, { controller: AbortController; executing: number; idle?: () => void }>();
  const worker = new Worker(
    settings.queueName,
    async (job: Job) => {
      const run = runOfJob(job.data);
      const entry: { controller: AbortController; executing: number; idle?: () => void } = {
        controller: new AbortController(),
        executing: 0,
      };
      held.set(run.runId, entry);
      try {
        await processRun(
          env,
          Object.hasOwn(agents, run.agent) ? agents[run.agent] : undefined,
          run,
          job,
          job.token ?? '',
          entry.controller.signal,
          (count) => {
            entry.executing = count;
            if (count === 0) entry.idle?.();
          },
        );
      } finally {
        entry.idle?.(); // its grace timer, if `close` started one
        held.delete(run.runId);
      }
    },
    {
      connection: settings.connection,
      prefix: settings.prefix,
      concurrency,
      autorun: false,
      lockDuration: settings.lockMs,
      stalledInterval: settings.stalledIntervalMs,
      maxStalledCount: settings.maxStalledCount,
    },
  );
  // Made once the worker is (BullMQ may refuse its options by throwing: nothing left open then).
  const subscriber = settings.client.duplicate({ connectionName: 'rxagent-bullmq-cancels' });
  subscriber.on('error', env.onError);
  subscriber.on('message', (_channel: string, runId: string) => {
    held.get(runId)?.controller.abort(new RunCancelledError(runId));
  });
  worker.on('error', env.onError);
  worker.on('lockRenewalFailed', (jobIds) => {
    for (const jobId of jobIds) held.get(jobId)?.controller.abort(new HandOver('lost'));
  });
  // A job BullMQ failed: its processor threw something unexpected, or it stalled more often than
  // `maxStalledCount` allows (its workers kept dying). Its run ends failed, its watchers told.
  worker.on('failed', (job, error) => {
    const stalled = /stalled/i.test(error.message);
    // Not a retry BullMQ scheduled (a store that failed under the run: it resumes from its checkpoint).
    if (!job || (!stalled && job.finishedOn === undefined && job.attemptsMade < (job.opts.attempts ?? 1)))
      return;
    let run;
    try {
      run = runOfJob(job.data);
    } catch {
      return;
    }
    const cause = stalled ? new RunLostError(run.runId, 'writer_gone') : error;
    const { runId, sessionId } = run;
    // Its checkpoint goes too, its finished steps kept (best effort: the store may be what failed):
    // the session is free for its next run.
    cancelDurableRun(env.sessions, sessionId, runId, { end: 'failed' })
      .catch(env.onError)
      .then(() => endRun(env, runId, sessionId, { type: 'failed', error: cause }))
      .catch(env.onError);
  });
  let closing: Promise<void> | undefined;
  // The names `start` accepts: told again every stalled interval, so a Redis that lost its data
  // (a restart without persistence) learns them again while the worker runs.
  const names = Object.keys(agents);
  const announce = async () => {
    if (names.length > 0) await settings.client.sadd(settings.keys.agents, ...names);
  };
  const announcing = setInterval(() => void announce().catch(env.onError), settings.stalledIntervalMs);
  announcing.unref();
  const started = (async () => {
    await subscriber.subscribe(settings.keys.cancels);
    await announce();
    // Listening for cancels before taking any run: a cancel published from now on is heard.
    if (!closing) void worker.run().catch(env.onError);
  })();
  started.catch(env.onError);
  return {
    close() {
      closing ??= (async () => {
        clearInterval(announcing);
        await started.catch(() => undefined);
        const closed = worker.close();
        for (const entry of held.values()) {
          const handBack = () => entry.controller.abort(new HandOver('close'));
          // A call in `execute` is let finish: handed back now, it would be in doubt (`interrupted`).
          if (entry.executing === 0) handBack();
          else {
            const grace = setTimeout(handBack, settings.closeGraceMs);
            entry.idle = () => {
              clearTimeout(grace);
              handBack();
            };
          }
        }
        await closed;
        subscriber.disconnect();
      })();
      return closing;
    },
  };
}
