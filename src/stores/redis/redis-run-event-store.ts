import { ignoreElements, Observable, tap, timer } from 'rxjs';
import type { AgentEvent } from '../../agent/index.ts';
import {
  ReplayExpiredError,
  RunCancelledError,
  RunFailedError,
  RunLostError,
  RunNotFoundError,
  RxAgentError,
} from '../../core/index.ts';
import type { RunEnd, RunEventStore, SequencedEvent } from '../../http/index.ts';
import { eventId, parseEventId } from '../../http/index.ts';
import { notYetSent } from '../../http/sequenced-event.ts';
import { publicError } from '../../http/public-error.ts';
import { DEFAULT_STORE_TIMEOUTS } from '../../sessions/store-timeouts.ts';
import { type RedisConnectionOptions, redisConnection } from './redis-connection.ts';
import { redisRunControl } from './redis-run-control.ts';

/** Options of {@link redisRunEventStore}. */
export type RedisRunEventStoreOptions = RedisConnectionOptions & {
  /** @default 'rxagent:run:' */
  prefix?: string;
  /** The newest events kept per run. @default 10_000 */
  replayLimit?: number;
  /** How long a finished run's events stay. @default 300_000 */
  retainMs?: number;
  /** How long a running run's events stay without a new event. @default 86_400_000 */
  idleTtlMs?: number;
  /** How long one blocking read waits before it asks again (at most a third of `leaseMs`). @default 5_000 */
  blockMs?: number;
  /**
   * A running run's state lives this long past its writer's last refresh (every third of it); a
   * watcher whose run's writer stopped refreshing ends with `RunLostError` within about this plus
   * `blockMs`. Also how long a reader counts as watching after its last read. @default 15_000
   */
  leaseMs?: number;
  /** The CLIENT SETNAME of the readers' connections. @default 'rxagent-run-reader' */
  readerName?: string;
  /** A write that failed (the run goes on; a reader may then miss events and time out). */
  onError?: (error: unknown) => void;
};

/** A `RunEventStore` in Redis, and how to close its connection. */
export interface RedisRunEventStore extends RunEventStore {
  close(): Promise<void>;
}

type Entry = [id: string, fields: string[]];

/**
 * KEYS: stream, writer. ARGV: writer, maxlen, id, event, ttl. Adds the event unless the run is
 * fenced to another writer; the stream and its fence live on together.
 */
const FENCED_XADD = `
local fenced = redis.call('GET', KEYS[2])
if fenced and fenced ~= ARGV[1] then return 0 end
-- A durable run's stream has no expiry until its end (its approval may wait for days): kept so.
local kept = redis.call('PTTL', KEYS[1]) == -1
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[2], ARGV[3], 'event', ARGV[4])
if not kept then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
if fenced then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
return 1
`;

/** Entries read per XRANGE while replaying. */
const REPLAY_PAGE = 1000;

/**
 * A `RunEventStore` in Redis streams, shared by app servers: one stream per run
 * (`<prefix>{runId}`), entry `0-<n+1>` for the n-th event (`0-1` marks the run's start), trimmed
 * exactly to `replayLimit`, and an `end` entry. A read replays with XRANGE (in pages), then follows
 * with blocking XREAD on its own connection (closed on unsubscribe). A failed run's error crosses
 * servers as a `RunFailedError` (name, code and message only). Its `control` lets any server see a
 * run's state, count as its watcher, cancel it and answer its approvals: the writer refreshes the
 * run's state (`<prefix>{runId}:state`) every `leaseMs / 3`, so a reader whose run's writer died,
 * or whose events expired, ends with `RunLostError` instead of waiting forever.
 * @example new RunRegistry({ eventStore: redisRunEventStore({ url: 'redis://127.0.0.1:6379' }) })
 */
export function redisRunEventStore(options: RedisRunEventStoreOptions): RedisRunEventStore {
  const { client, close } = redisConnection(options);
  const prefix = options.prefix ?? 'rxagent:run:';
  const replayLimit = options.replayLimit ?? 10_000;
  const retainMs = options.retainMs ?? 300_000;
  const idleTtlMs = options.idleTtlMs ?? 86_400_000;
  const leaseMs = options.leaseMs ?? 15_000;
  // A reader refreshes its watch between blocking reads: a block longer than a third of the lease
  // would let the watch lapse while it waits, and the writer's server cancel a watched run.
  const blockMs = Math.max(1, Math.floor(Math.min(options.blockMs ?? 5_000, leaseMs / 3)));
  const onError = options.onError ?? (() => undefined);
  // Names the blocking readers' connections (CLIENT LIST), one per watching client.
  const connectionName = options.readerName ?? 'rxagent-run-reader';
  const key = (runId: string) => `${prefix}{${runId}}`;
  const keys = {
    state: (runId: string) => `${key(runId)}:state`,
    watched: (runId: string) => `${key(runId)}:watched`,
    channel: (runId: string) => `${key(runId)}:control`,
    actorRuns: (owner: string) => `${prefix}actor:{${owner}}:running`,
    writer: (runId: string) => `${key(runId)}:writer`,
  };
  const control = redisRunControl(client, keys, { leaseMs, retainMs }, onError);
  // The runs this store writes: their state is refreshed while they run (the writer's lease).
  const leased = new Set<string>();
  // Renewed whole, not only its expiry: a state Redis lost (a restart) comes back within a lease.
  const refresher = setInterval(() => {
    if (leased.size > 0) control.renew(leased);
  }, leaseMs / 3);
  refresher.unref?.();
  const refusal = async (runId: string, afterSeq: number): Promise<Error | undefined> => {
    const first = (await client.xrange(key(runId), '-', '+', 'COUNT', 1)) as Entry[];
    const oldest = first[0];
    if (!oldest) return new RunNotFoundError(runId);
    const oldestSeq = Number(oldest[0].slice(2)) - 1;
    // The last two entries: the newest event (or the start marker), then maybe the end marker.
    const latest = (await client.xrevrange(key(runId), '+', '-', 'COUNT', 2)) as Entry[];
    const newest = latest.find(([id]) => id.startsWith('0-'))?.[0] ?? oldest[0];
    const newestSeq = Number(newest.slice(2)) - 1;
    if (afterSeq > newestSeq) return notYetSent(runId, afterSeq, newestSeq);
    if (afterSeq + 1 < Math.max(oldestSeq, 1)) return new ReplayExpiredError(runId, eventId(runId, afterSeq));
    return undefined;
  };
  const write = (runId: string, id: string, field: string, value: string, ttlMs: number) => {
    client
      .multi()
      .xadd(key(runId), 'MAXLEN', String(replayLimit + 1), id, field, value)
      .pexpire(key(runId), ttlMs)
      .exec()
      .catch(onError);
  };

  // An append that names its writer lands only while the run's fence names it (or none).
  const fencedWrite = (runId: string, writer: string, id: string, value: string) => {
    client
      .eval(
        FENCED_XADD,
        2,
        key(runId),
        keys.writer(runId),
        writer,
        String(replayLimit + 1),
        id,
        value,
        String(idleTtlMs),
      )
      .catch(onError);
  };

  return {
    open(runId, info = {}) {
      if (info.durable)
        // Its writers come and go (workers die, an approval parks it for days): no idle expiry
        // until `end`; its attempts' fenced appends keep it so.
        client
          .multi()
          .xadd(key(runId), 'MAXLEN', String(replayLimit + 1), '0-1', 'open', '1')
          .persist(key(runId))
          .exec()
          .catch(onError);
      else write(runId, '0-1', 'open', '1', idleTtlMs);
      const state = {
        status: 'running' as const,
        pending: [],
        ...(info.owner === undefined ? {} : { owner: info.owner }),
      };
      // A queue keeps a durable run across the death of any one process: no writer's lease here,
      // its state lives until `end` (from whichever process ends it).
      if (info.durable) return control.hold(runId, state);
      control.setState(runId, state);
      leased.add(runId);
    },
    append(runId, event, writer) {
      const seq = parseEventId(event.id)?.seq;
      if (seq === undefined)
        throw new RxAgentError(`Not an event id of run ${runId}: ${event.id}`, 'invalid_event_id');
      if (writer === undefined) write(runId, `0-${seq + 1}`, 'event', JSON.stringify(event.event), idleTtlMs);
      else fencedWrite(runId, writer, `0-${seq + 1}`, JSON.stringify(event.event));
    },
    fence: async (runId, writer) => {
      // On the appends' connection: every append sent before it has landed once it has.
      await client.set(keys.writer(runId), writer, 'PX', idleTtlMs);
    },
    end(runId, end) {
      leased.delete(runId);
      control.forget(runId);
      write(runId, '*', 'end', JSON.stringify(endOf(end)), retainMs);
      client.pexpire(keys.state(runId), retainMs).catch(onError);
    },
    check: async (runId, afterSeq) => {
      const refused = await refusal(runId, afterSeq);
      if (refused) throw refused;
    },
    control,
    lastSeq: async (runId) => {
      // The newest event entry `0-<n+1>`: end markers (automatic ids, however many were written)
      // all sort after every `0-…` id.
      const latest = (await client.xrevrange(
        key(runId),
        '0-18446744073709551615',
        '-',
        'COUNT',
        1,
      )) as Entry[];
      const newest = latest.find(([id]) => id.startsWith('0-'))?.[0];
      return newest === undefined ? 0 : Number(newest.slice(2)) - 1;
    },
    read: (runId, afterSeq) =>
      new Observable<SequencedEvent>((subscriber) => {
        // A blocking read waits up to blockMs by design: its command bound is the block plus the usual one.
        const reader = client.duplicate({
          connectionName,
          commandTimeout: blockMs + DEFAULT_STORE_TIMEOUTS.queryTimeoutMs,
        });
        reader.on('error', () => undefined);
        let stopped = false;
        let lastSeq = afterSeq;
        const deliver = (entries: Entry[]): boolean => {
          for (const [id, fields] of entries) {
            const [field, value = ''] = fields;
            if (field === 'event') {
              const seq = Number(id.slice(2)) - 1;
              // Trimmed away since the last read (a slow reader, or a trim between the checks and
              // the read): never a silent gap.
              if (seq !== lastSeq + 1) throw new ReplayExpiredError(runId, eventId(runId, lastSeq));
              lastSeq = seq;
              subscriber.next({ id: eventId(runId, seq), event: JSON.parse(value) as AgentEvent });
            } else if (field === 'end') {
              const end = JSON.parse(value) as StoredEnd;
              if (end.type === 'failed')
                subscriber.error(new RunFailedError(end.message, end.name, end.code));
              else if (end.type === 'cancelled') subscriber.error(new RunCancelledError(runId));
              else subscriber.complete();
              return true;
            }
          }
          return false;
        };
        let watchedAt = 0;
        // Counts this reader as a watcher of the run, for the server that runs it.
        const watching = () => {
          if (Date.now() - watchedAt < leaseMs / 3) return;
          watchedAt = Date.now();
          client.set(keys.watched(runId), '1', 'PX', leaseMs).catch(onError);
        };
        const run = async () => {
          const refused = await refusal(runId, afterSeq);
          if (refused) throw refused;
          watching();
          let cursor = `0-${afterSeq + 1}`;
          for (;;) {
            const page = (await client.xrange(
              key(runId),
              `(${cursor}`,
              '+',
              'COUNT',
              REPLAY_PAGE,
            )) as Entry[];
            if (stopped || deliver(page)) return;
            cursor = page.at(-1)?.[0] ?? cursor;
            if (page.length < REPLAY_PAGE) break;
          }
          let failingSince: number | undefined;
          while (!stopped) {
            try {
              watching();
              const answer = (await reader.xread('BLOCK', blockMs, 'STREAMS', key(runId), cursor)) as
                [string, Entry[]][] | null;
              const entries = answer?.[0]?.[1] ?? [];
              if (deliver(entries)) return;
              cursor = entries.at(-1)?.[0] ?? cursor;
              if (entries.length === 0 && !stopped) {
                // Nothing new for blockMs: is anyone still writing this run?
                const [stream, state] = await Promise.all([
                  client.exists(key(runId)),
                  client.exists(keys.state(runId)),
                ]);
                if (stream === 0) throw new RunLostError(runId, 'expired');
                if (state === 0) throw new RunLostError(runId, 'writer_gone');
              }
              failingSince = undefined;
            } catch (error) {
              // Redis out of reach (a restart, a failover): the cursor is kept, so reading again once
              // it is back loses and repeats nothing. Bounded: after leaseMs of failures, the error.
              if (stopped || RxAgentError.is(error)) throw error;
              failingSince ??= Date.now();
              if (Date.now() - failingSince > leaseMs) throw error;
              await new Promise((resolve) => setTimeout(resolve, Math.min(500, blockMs)));
            }
          }
        };
        run()
          .catch((error: unknown) => {
            if (!stopped) subscriber.error(error);
          })
          .finally(() => reader.disconnect());
        return () => {
          stopped = true;
          reader.disconnect();
        };
      }),
    // A paced reader between reads: its watch is refreshed as a read's is.
    watch: (runId) =>
      timer(0, leaseMs / 3).pipe(
        tap(() => client.set(keys.watched(runId), '1', 'PX', leaseMs).catch(onError)),
        ignoreElements(),
      ),
    delete: (runId) => {
      leased.delete(runId);
      control.forget(runId);
      client.del(key(runId), keys.state(runId), keys.writer(runId)).catch(onError);
    },
    close: async () => {
      clearInterval(refresher);
      control.close();
      await close();
    },
  };
}

type StoredEnd =
  { type: 'completed' | 'cancelled' } | { type: 'failed'; name: string; code: string; message: string };

function endOf(end: RunEnd): StoredEnd {
  if (end.type !== 'failed') return { type: end.type };
  // What crosses to another server is what a browser may see (no provider text).
  const { name, code, message } = publicError(end.error);
  return { type: 'failed', name, code, message };
}
