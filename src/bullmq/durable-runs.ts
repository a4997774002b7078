import { type ConnectionOptions, Queue, type RedisOptions } from 'bullmq';
import { Redis, type RedisOptions as IORedisOptions } from 'ioredis';
import {
  defer,
  endWith,
  from,
  ignoreElements,
  merge,
  type Observable,
  share,
  switchMap,
  takeUntil,
} from 'rxjs';
import { type DurableRunOptions, recordDecision } from '../agent/durable/index.ts';
import type { Agent, AgentInput } from '../agent/index.ts';
import {
  ApprovalNotPendingError,
  InvalidRequestError,
  RunNotFoundError,
  RxAgentError,
  TooManyRunsError,
} from '../core/index.ts';
import { type RunAction, type RunAuthorize, sameActor } from '../http/run-authorize.ts';
import type { RunEnd, RunEventStore } from '../http/run-event-store.ts';
import { resumableEvents } from '../http/resumable-events.ts';
import type { RunDecision, Runs } from '../http/runs.ts';
import { parseEventId, type SequencedEvent } from '../http/sequenced-event.ts';
import type { Actor } from '../security/actor.ts';
import { assertSessionId } from '../sessions/session-id.ts';
import type { SessionStore } from '../sessions/session-store.ts';
import { checkDurableOptions } from './check-options.ts';
import { type DurableWorker, startWorker } from './durable-worker.ts';
import { ENDED_STATUSES } from '../http/runs.ts';
import { runBook } from './run-book.ts';
import { endCancelled, endOrphan, promote, type RunEnv } from './run-env.ts';
import { durableOptions, inputMessages, plainActor } from './run-input.ts';
import { runJobData } from './run-job.ts';
import { runKeys } from './run-keys.ts';
import { workerLost } from './worker-lost.ts';

/** Options of {@link durableRuns}. */
export interface DurableRunsOptions {
  /**
   * How to reach Redis: ioredis options, or an ioredis client (one without BullMQ's
   * `maxRetriesPerRequest: null` lends its options to BullMQ's own connections, with that one set).
   * A client you pass is left open by `close`.
   */
  connection: RedisOptions | Redis;
  /** @default 'rxagent-runs' */
  queueName?: string;
  /** BullMQ's key prefix, also for rxagent's own keys (`<prefix>:<queueName>:rxagent:…`). @default 'bull' */
  prefix?: string;
  /** Where runs keep their checkpoints: shared by every process (Redis, PostgreSQL, MySQL). */
  sessions: SessionStore;
  /** Where runs' events go: shared by every process (`redisRunEventStore`). */
  events: RunEventStore;
  /** The agent names `start` accepts. @default any name a worker has announced (`work({ name: agent })`) */
  agents?: readonly string[];
  /** Who may attach to, cancel or decide on a run. @default sameActor */
  authorize?: RunAuthorize;
  /** A parked approval is refused (`approval timed out`) after this long (at most 366 days). @default 86_400_000 (24 h) */
  approvalTimeoutMs?: number;
  /** BullMQ's `lockDuration`: a dead worker's run is taken over within about this plus `stalledIntervalMs`. @default 30_000 */
  lockMs?: number;
  /** BullMQ's `stalledInterval`. @default 30_000 */
  stalledIntervalMs?: number;
  /** How often a run may lose its worker (killed) before it ends failed (`RunLostError`). @default 1000 */
  maxStalledCount?: number;
  /** How long an ended run's status stays readable. @default 86_400_000 (24 h) */
  retainMs?: number;
  /**
   * How many runs may wait on one session (queued, running or parked) before `start` refuses the
   * next with `TooManyRunsError`. @default 100
   */
  maxRunsPerSession?: number;
  /**
   * How long a watcher (`attach`) waits on a run marked running that no worker holds (its worker
   * died and none took it over, e.g. every worker is down) before it ends with `RunLostError`
   * (`writer_gone`). The run itself stays queued: a worker that comes back resumes it, and a later
   * `attach` watches it again. A run waiting for a worker or its session's turn, or parked for an
   * approval, is not lost. @default 300_000 (5 min)
   */
  workerLostMs?: number;
  /** How long a run whose session is busy waits before it looks again (it is woken when the session frees). @default 5_000 */
  sessionWaitMs?: number;
  /**
   * Attempts in a row that may take a run and record nothing (each one's worker died, or closed,
   * before its next checkpoint) before the run fails with `run_attempts_exhausted`: a step that
   * kills its worker every time is not paid for again and again. @default 10
   */
  maxIdleAttempts?: number;
  /**
   * How long `worker.close()` lets a run's tool calls in `execute` finish (their outcomes recorded)
   * before it hands the run back, when they would otherwise be in doubt. @default 10_000
   */
  closeGraceMs?: number;
  /** Errors nobody awaits (a worker's connection, a write the run goes on without). @default ignored */
  onError?: (error: unknown) => void;
}

/** What `start` takes besides the agent and input. */
export type DurableStartOptions = { sessionId?: string; actor?: Actor } & DurableRunOptions;

/** Durable runs on a BullMQ queue: `Runs` for HTTP handlers, plus `start` and `work`. */
export interface DurableRuns extends Runs {
  /**
   * Enqueues a run and returns at once: its id (for `attach`) and its session (made when not given).
   * A run waits for the session's earlier runs to end (one run per session at a time, in order).
   * A session belongs to the actor whose run made it (one made without an actor is open to anyone
   * with its id): another actor's run on it is refused.
   * @throws InvalidRequestError (an agent no worker runs, input that is not messages, a bad option,
   * option `sessionId`: another actor's session), InvalidSessionIdError, TooManyRunsError
   * (`maxRunsPerSession` runs already wait on the session); nothing is enqueued then
   */
  start(
    agent: string,
    input: AgentInput,
    options?: DurableStartOptions,
  ): Promise<{ runId: string; sessionId: string }>;
  /**
   * Whether `attach` with these options would start, before a server sends its headers (404 or
   * 410 rather than a stream that fails at once).
   * @throws RunNotFoundError (also for another actor's run), ReplayExpiredError (as a rejection)
   */
  check(runId: string, options?: { lastEventId?: string; actor?: Actor }): Promise<void>;
  /**
   * Runs the queue's runs in this process, `concurrency` at a time. @default concurrency 1
   * @throws InvalidRequestError for an agent without `sessions` (option `agents`) or an event
   * store without `lastSeq` (option `events`)
   */
  work(agents: Readonly<Record<string, Agent>>, options?: { concurrency?: number }): DurableWorker;
  /** Closes the workers `work` made, the queue and every connection this object opened. */
  close(): Promise<void>;
}

/**
 * Runs that outlive the process running them: `start` on any app server puts a run on a BullMQ
 * queue; `work` in any number of worker processes runs it with the agent's own step loop,
 * checkpointed in its session, so a worker's death loses at most the step in flight (another
 * worker resumes the run, watchers told `step-restarted`); an approval parks the run with no
 * worker slot held until `decide` (from any server) or its timeout; `attach`, `cancel` and
 * `status` work from anywhere.
 * @example
 * const runs = durableRuns({ connection: { host: '127.0.0.1', port: 6379 }, sessions, events: redisRunEventStore({ url }) });
 * const worker = runs.work({ support: agent }, { concurrency: 8 });   // in each worker process
 * const { runId } = await runs.start('support', 'Where is my order?', { actor });   // on any app server
 */
export function durableRuns(options: DurableRunsOptions): DurableRuns {
  checkDurableOptions(options);
  const queueName = options.queueName ?? 'rxagent-runs';
  const prefix = options.prefix ?? 'bull';
  const authorize = options.authorize ?? sameActor;
  const onError = options.onError ?? (() => undefined);
  const given = options.connection instanceof Redis ? options.connection : undefined;
  // rxagent's own commands (ioredis's default bound: a command fails after 20 reconnection attempts).
  const client = given ?? new Redis(options.connection as IORedisOptions & { replyMapping?: never });
  // A client you pass keeps its own error listeners.
  if (!given) client.on('error', onError);
  // BullMQ's own connections: made from the options, or duplicated from the client given. A worker
  // needs `maxRetriesPerRequest: null` (BullMQ throws otherwise): a client made without it (ioredis's
  // default is 20) lends its options with that one changed, and BullMQ opens its own connections.
  const connection = (
    given && given.options.maxRetriesPerRequest !== null
      ? { ...given.options, maxRetriesPerRequest: null }
      : (given ?? options.connection)
  ) as ConnectionOptions;
  const keys = runKeys(prefix, queueName);
  const workerLostMs = options.workerLostMs ?? 300_000;
  const maxRunsPerSession = options.maxRunsPerSession ?? 100;
  const queue = new Queue(queueName, { connection, prefix });
  queue.on('error', onError);
  const env: RunEnv = {
    queue,
    book: runBook(client, keys, options.retainMs ?? 86_400_000, maxRunsPerSession),
    events: options.events,
    sessions: options.sessions,
    approvalTimeoutMs: options.approvalTimeoutMs ?? 86_400_000,
    sessionWaitMs: options.sessionWaitMs ?? 5_000,
    maxIdleAttempts: options.maxIdleAttempts ?? 10,
    // A run's enqueue takes moments; a run with no job for this long lost it for good.
    orphanMs: Math.min(60_000, workerLostMs),
    onError,
  };
  const workers = new Set<DurableWorker>();

  /** The run's record, once `actor` may `action` it (else as for an unknown run: `null`). */
  const permitted = async (runId: string, actor: Actor | undefined, action: RunAction) => {
    const record = await env.book.read(runId);
    if (!record) return null;
    const ok = await authorize(actor, { type: 'run', id: runId, owner: record.owner }, action);
    return ok ? record : null;
  };

  const knownAgent = async (name: unknown): Promise<boolean> => {
    if (typeof name !== 'string' || name === '') return false;
    if (options.agents) return options.agents.includes(name);
    return (await client.sismember(keys.agents, name)) === 1;
  };

  return {
    async start(agent, input, startOptions = {}) {
      const { sessionId: askedSession, actor, ...rest } = startOptions;
      if (!(await knownAgent(agent)))
        throw new InvalidRequestError(
          `rxagent/bullmq: no worker runs an agent named ${JSON.stringify(agent)}`,
          {
            option: 'agent',
          },
        );
      const sessionId = askedSession === undefined ? crypto.randomUUID() : assertSessionId(askedSession);
      const run = {
        runId: crypto.randomUUID(),
        agent,
        sessionId,
        input: inputMessages(input),
        options: durableOptions(rest),
        ...(actor === undefined ? {} : { actor: plainActor(actor) as Actor }),
      };
      const owner = actor?.id;
      const created = await env.book.create(run.runId, { agent, sessionId, owner });
      if (created === 'foreign')
        throw new InvalidRequestError('rxagent/bullmq: the session belongs to another actor', {
          option: 'sessionId',
        });
      if (created === 'full') throw new TooManyRunsError(maxRunsPerSession);
      options.events.open(run.runId, { owner, durable: true });
      try {
        // Asked on the store's connection after its writes: once answered, any server can attach.
        await options.events.check?.(run.runId, 0);
        await queue.add('run', runJobData(run), {
          jobId: run.runId,
          // A store that fails under a run (the checkpoint stays) is tried again, with backoff.
          attempts: 5,
          backoff: { type: 'exponential', delay: 1_000 },
          removeOnComplete: true,
          removeOnFail: { age: 7 * 86_400 },
        });
      } catch (error) {
        await env.book.discard(run.runId, sessionId).catch(onError);
        options.events.delete(run.runId);
        throw error;
      }
      return { runId: run.runId, sessionId };
    },

    work(agents, workOptions = {}) {
      for (const [name, agent] of Object.entries(agents))
        if (!agent.options.sessions)
          throw new InvalidRequestError(
            `rxagent/bullmq: agent ${JSON.stringify(name)} has no sessions: a durable run keeps its checkpoints in its session (give it the same store as durableRuns)`,
            { option: 'agents' },
          );
      if (!options.events.lastSeq)
        throw new InvalidRequestError(
          "rxagent/bullmq: the event store cannot tell a run's last event (lastSeq): a resumed run could not continue its events",
          { option: 'events' },
        );
      const worker = startWorker(
        env,
        {
          queueName,
          prefix,
          connection,
          client,
          keys,
          lockMs: options.lockMs ?? 30_000,
          stalledIntervalMs: options.stalledIntervalMs ?? 30_000,
          maxStalledCount: options.maxStalledCount ?? 1000,
          closeGraceMs: options.closeGraceMs ?? 10_000,
        },
        agents,
        workOptions.concurrency ?? 1,
      );
      workers.add(worker);
      return worker;
    },

    attach(runId, attachOptions = {}) {
      // Resumable after any event id: `writeSSE` and `BodyPacer` stop reading while a client is slow.
      return resumableEvents((lastEventId = attachOptions.lastEventId) =>
        defer(() => {
          const afterSeq = afterSeqOf(runId, lastEventId);
          return from(permitted(runId, attachOptions.actor, 'attach')).pipe(
            switchMap((record): Observable<SequencedEvent> => {
              if (!record) throw new RunNotFoundError(runId);
              // Kept after it ends: the watch below may subscribe late and must not read the run again.
              const events$ = options.events
                .read(runId, afterSeq)
                .pipe(share({ resetOnComplete: false, resetOnError: false }));
              let endedSince: number | undefined;
              const held = async () => {
                const look = await env.book.look(runId);
                // A run that never got its job (its app server died in start) ends here: its end
                // reaches this watcher through its events.
                if (look === 'no-job') return endOrphan(env, runId, record.sessionId);
                if (look === 'completed' || look === 'failed' || look === 'cancelled') {
                  // Its ender died between the record and the events (or its write to them was
                  // lost): the events are told again, as the record says.
                  endedSince ??= Date.now();
                  if (Date.now() - endedSince >= workerLostMs) {
                    endedSince = Number.POSITIVE_INFINITY;
                    options.events.end(runId, endOfStatus(runId, look));
                  }
                  return true;
                }
                return look !== 'unheld' && look !== 'gone';
              };
              // The watch on the run's worker lasts as long as the events do.
              const lost$ = workerLost(runId, held, workerLostMs).pipe(
                takeUntil(events$.pipe(ignoreElements(), endWith(true))),
              );
              return merge(events$, lost$);
            }),
          );
        }),
      );
    },

    async check(runId, checkOptions = {}) {
      const afterSeq = afterSeqOf(runId, checkOptions.lastEventId);
      if (!(await permitted(runId, checkOptions.actor, 'attach'))) throw new RunNotFoundError(runId);
      await options.events.check?.(runId, afterSeq);
    },

    async decide(runId, toolCallId, decision: RunDecision, decideOptions = {}) {
      const record = await permitted(runId, decideOptions.actor, 'decide');
      if (!record) throw new RunNotFoundError(runId);
      // Woken now if parked; a run on its way to parking finds the word when it gets there.
      const wake = async () => {
        await env.book.wake(runId);
        await promote(queue, runId);
      };
      try {
        await recordDecision(options.sessions, record.sessionId, runId, toolCallId, decision);
      } catch (error) {
        // Decided already, maybe by a server that died before it woke the run: a client's retry
        // wakes it (an attempt with nothing decided parks again).
        if (ApprovalNotPendingError.is(error) && record.status === 'awaiting-approval') await wake();
        throw error;
      }
      await wake();
    },

    async cancel(runId, cancelOptions = {}) {
      const record = await permitted(runId, cancelOptions.actor, 'cancel');
      if (!record || ENDED_STATUSES.has(record.status)) return false;
      const was = await env.book.requestCancel(runId);
      if (was === null || ENDED_STATUSES.has(was)) return false;
      // Waiting or parked: the job goes, and the run ends here. Active: its worker stops it.
      if ((await queue.remove(runId)) === 1 || (await queue.getJobState(runId)) === 'unknown') {
        // False when it ended meanwhile (its job gone because it completed).
        return endCancelled(env, runId, record.sessionId);
      }
      await client.publish(keys.cancels, runId);
      return true;
    },

    async status(runId) {
      return (await env.book.read(runId))?.status ?? null;
    },

    async close() {
      await Promise.all([...workers].map((worker) => worker.close()));
      await queue.close();
      if (!given) await client.quit().catch(() => client.disconnect());
    },
  };
}

/** The number of the last event a client has, from its `Last-Event-ID` (0 without one). */
function afterSeqOf(runId: string, lastEventId: string | undefined): number {
  if (lastEventId === undefined || lastEventId === '') return 0;
  const parsed = parseEventId(lastEventId);
  if (parsed?.runId !== runId) throw new RunNotFoundError(parsed?.runId ?? lastEventId);
  return parsed.seq;
}

/** How an ended run reads to its watchers, from its record alone. */
function endOfStatus(runId: string, status: 'completed' | 'failed' | 'cancelled'): RunEnd {
  if (status !== 'failed') return { type: status };
  return { type: 'failed', error: new RxAgentError(`The run ${runId} failed`, 'run_failed') };
}
