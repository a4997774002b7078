import type { Redis } from 'ioredis';
import type { RunStatus } from '../http/runs.ts';
import { redisScript } from '../stores/redis/redis-script.ts';
import type { RunKeys } from './run-keys.ts';

/** What every process reads about a durable run: kept in Redis beside its queue. */
export interface RunRecord {
  agent: string;
  sessionId: string;
  /** The id of the actor that started it, if one did. */
  owner: string | undefined;
  status: RunStatus;
  /** When a parked run's approvals time out (ms since the epoch), while it is parked. */
  parkedUntil: number | undefined;
  /** When `start` made it (ms since the epoch). */
  createdAt: number;
}

/** What a worker may do with a run it picked up. */
export type Claim =
  | { type: 'gone' }
  | { type: 'ended' }
  | { type: 'cancelled' }
  /** Another run of the session goes first: `head` is the run that holds the session. */
  | { type: 'wait'; head: string }
  /** It may run now (marked `running`); `was` is its status before. */
  | { type: 'run'; was: RunStatus };

const ENDED = "s == 'completed' or s == 'failed' or s == 'cancelled'";

// Redis's clock (ms), the same for every server.
const NOW =
  "local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)";

// KEYS: run, session, session's owner. ARGV: agent, sessionId, owner, runId, maxRunsPerSession.
// A session belongs to the actor whose run made it ('' for none: open to anyone); at most
// maxRunsPerSession runs wait on it.
const CREATE = redisScript(`
local owner = redis.call('GET', KEYS[3])
if owner and owner ~= '' and owner ~= ARGV[3] then return 'foreign' end
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[5]) then return 'full' end
if not owner then redis.call('SET', KEYS[3], ARGV[3]) end
${NOW}
redis.call('HSET', KEYS[1], 'agent', ARGV[1], 'sessionId', ARGV[2], 'owner', ARGV[3], 'status', 'queued', 'createdAt', now)
redis.call('RPUSH', KEYS[2], ARGV[4])
return 'ok'`);

// KEYS: run, session. ARGV: runId.
const CLAIM = redisScript(`
local s = redis.call('HGET', KEYS[1], 'status')
if not s then return {'gone'} end
if ${ENDED} then return {'ended'} end
if redis.call('HGET', KEYS[1], 'cancel') then return {'cancelled'} end
local head = redis.call('LINDEX', KEYS[2], 0)
if head and head ~= ARGV[1] then return {'wait', head} end
redis.call('HSET', KEYS[1], 'status', 'running')
redis.call('HDEL', KEYS[1], 'wake', 'parkedUntil')
return {'run', s}`);

// KEYS: run, session. ARGV: runId, status, retainMs. Returns the session's next run ('' for none),
// or false when the run had already ended (someone else finished it).
const FINISH = redisScript(`
local s = redis.call('HGET', KEYS[1], 'status')
if not s or ${ENDED} then return false end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
redis.call('HDEL', KEYS[1], 'cancel', 'wake', 'parkedUntil')
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('LREM', KEYS[2], 0, ARGV[1])
return redis.call('LINDEX', KEYS[2], 0) or ''`);

// KEYS: run. ARGV: status, field, value (set only while the run has not ended).
const SET_STATUS = redisScript(`
local s = redis.call('HGET', KEYS[1], 'status')
if not s or ${ENDED} then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) end
return 1`);

// KEYS: run. ARGV: flag. Sets the flag on a run that has not ended; returns its status before.
const FLAG = redisScript(`
local s = redis.call('HGET', KEYS[1], 'status')
if not s then return false end
if not (${ENDED}) then redis.call('HSET', KEYS[1], ARGV[1], '1') end
return s`);

// KEYS: run. Takes the wake flag a decision left while the run was on its way to parking.
const TAKE_WAKE = redisScript(`
local w = redis.call('HGET', KEYS[1], 'wake')
redis.call('HDEL', KEYS[1], 'wake')
return w or false`);

// KEYS: session, head's run. ARGV: head. Drops a head whose run ended or is gone.
const HEAL = redisScript(`
if redis.call('LINDEX', KEYS[1], 0) ~= ARGV[1] then return 1 end
local s = redis.call('HGET', KEYS[2], 'status')
if s and not (${ENDED}) then return 0 end
redis.call('LPOP', KEYS[1])
return 1`);

// KEYS: run, job, lock. What a watcher needs to know whether a worker holds the run: its status,
// whether its job exists, whether a worker holds the job's lock.
const LOOK = redisScript(`
return {redis.call('HGET', KEYS[1], 'status') or '', redis.call('EXISTS', KEYS[2]), redis.call('EXISTS', KEYS[3])}`);

// KEYS: run, job. ARGV: orphanMs. 1 when the run has not ended, has no job, and was made at least
// orphanMs ago (by Redis's clock): its enqueue never happened (its app server died in start) or its
// job was removed from outside the run's flow; 2 when a cancel was asked too (its app server died
// after removing the job, before ending the run).
const ORPHANED = redisScript(`
local s = redis.call('HGET', KEYS[1], 'status')
if not s or ${ENDED} then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
${NOW}
if now - tonumber(redis.call('HGET', KEYS[1], 'createdAt') or '0') < tonumber(ARGV[1]) then return 0 end
if redis.call('HEXISTS', KEYS[1], 'cancel') == 1 then return 2 end
return 1`);

/** What a watcher sees of a run's worker. */
export type WorkerLook =
  'held' | 'unheld' | 'no-job' | 'gone' | 'waiting' | 'completed' | 'failed' | 'cancelled';

/**
 * The runs of a queue as every process sees them: each run's record, and each session's FIFO of
 * runs not yet ended (only its head may run: one run per session at a time, in order). Every change
 * that depends on what is there is one Lua script, so two servers never both end a run.
 */
export function runBook(client: Redis, keys: RunKeys, retainMs: number, maxRunsPerSession: number) {
  const run = (script: { run: typeof CREATE.run }, k: string[], a: (string | number)[]) =>
    script.run(client, k, a);
  return {
    /**
     * Records a new run at the end of its session's FIFO.
     * @returns `foreign` (the session belongs to another actor) or `full` (maxRunsPerSession runs
     * wait on it), nothing recorded then
     */
    async create(
      runId: string,
      record: { agent: string; sessionId: string; owner: string | undefined },
    ): Promise<'ok' | 'foreign' | 'full'> {
      return (await run(
        CREATE,
        [keys.run(runId), keys.session(record.sessionId), keys.sessionOwner(record.sessionId)],
        [record.agent, record.sessionId, record.owner ?? '', runId, maxRunsPerSession],
      )) as 'ok' | 'foreign' | 'full';
    },

    /** Undoes `create` for a run that could not be enqueued. */
    async discard(runId: string, sessionId: string) {
      await client.multi().del(keys.run(runId)).lrem(keys.session(sessionId), 0, runId).exec();
    },

    async read(runId: string): Promise<RunRecord | null> {
      const fields = await client.hgetall(keys.run(runId));
      if (fields.status === undefined || fields.agent === undefined || fields.sessionId === undefined)
        return null;
      return {
        agent: fields.agent,
        sessionId: fields.sessionId,
        owner: fields.owner ? fields.owner : undefined,
        status: fields.status as RunStatus,
        parkedUntil: fields.parkedUntil ? Number(fields.parkedUntil) : undefined,
        createdAt: Number(fields.createdAt ?? 0),
      };
    },

    async claim(runId: string, sessionId: string): Promise<Claim> {
      const answer = (await run(CLAIM, [keys.run(runId), keys.session(sessionId)], [runId])) as string[];
      const [type, value = ''] = answer;
      if (type === 'wait') return { type, head: value };
      if (type === 'run') return { type, was: value as RunStatus };
      return { type: type as 'gone' | 'ended' | 'cancelled' };
    },

    /**
     * Ends a run (once, whoever asks first) and frees its session.
     * @returns the session's next run ('' for none), or `null` when it had already ended
     */
    async finish(runId: string, sessionId: string, status: 'completed' | 'failed' | 'cancelled') {
      const next = (await run(
        FINISH,
        [keys.run(runId), keys.session(sessionId)],
        [runId, status, retainMs],
      )) as string | null;
      return next;
    },

    /** Marks a run parked until `until` (not if it ended meanwhile). */
    async park(runId: string, until: number): Promise<boolean> {
      return (await run(SET_STATUS, [keys.run(runId)], ['awaiting-approval', 'parkedUntil', until])) === 1;
    },

    /** Marks a run handed back to the queue (not if it ended meanwhile). */
    async requeue(runId: string): Promise<void> {
      await run(SET_STATUS, [keys.run(runId)], ['queued', '', '']);
    },

    /** Asks for a run to stop; @returns its status before (`null` for an unknown run) */
    async requestCancel(runId: string): Promise<RunStatus | null> {
      return (await run(FLAG, [keys.run(runId)], ['cancel'])) as RunStatus | null;
    },

    async cancelRequested(runId: string): Promise<boolean> {
      return (await client.hexists(keys.run(runId), 'cancel')) === 1;
    },

    /** Leaves word for a run on its way to parking that a decision came. */
    async wake(runId: string): Promise<void> {
      await run(FLAG, [keys.run(runId)], ['wake']);
    },

    async takeWake(runId: string): Promise<boolean> {
      return (await run(TAKE_WAKE, [keys.run(runId)], [])) === '1';
    },

    /** Whether a worker holds the run now (`waiting`: queued or parked, nothing should hold it). */
    async look(runId: string): Promise<WorkerLook> {
      const [status, job, lock] = (await run(
        LOOK,
        [keys.run(runId), keys.job(runId), keys.lock(runId)],
        [],
      )) as [string, number, number];
      if (status === '') return 'gone';
      if (status === 'completed' || status === 'failed' || status === 'cancelled') return status;
      if (job === 0) return 'no-job';
      if (status !== 'running') return 'waiting';
      return lock === 1 ? 'held' : 'unheld';
    },

    /** Whether the run lost its job for good, and how it ends then (see ORPHANED). */
    async orphaned(runId: string, orphanMs: number): Promise<'failed' | 'cancelled' | undefined> {
      const answer = await run(ORPHANED, [keys.run(runId), keys.job(runId)], [orphanMs]);
      return answer === 2 ? 'cancelled' : answer === 1 ? 'failed' : undefined;
    },

    /** Drops `head` from the session's FIFO when its run ended or is gone; @returns whether it is no longer there */
    async heal(sessionId: string, head: string): Promise<boolean> {
      return (await run(HEAL, [keys.session(sessionId), keys.run(head)], [head])) === 1;
    },
  };
}

/** The shared records of a queue's runs. */
export type RunBook = ReturnType<typeof runBook>;
