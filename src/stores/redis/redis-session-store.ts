import { randomUUID } from 'node:crypto';
import { type Cluster, Redis } from 'ioredis';
import {
  SessionConflictError,
  SessionCorruptError,
  SessionStoreError,
  TimeoutError,
} from '../../core/index.ts';
import { appendRequest, isExpired, type SessionStoreOptions } from '../../sessions/append-request.ts';
import { decodeStoredMessages } from '../../sessions/message-codec.ts';
import { assertSessionId } from '../../sessions/session-id.ts';
import { sessionSnapshot } from '../../sessions/session-snapshot.ts';
import { assertStoredHead } from '../../sessions/stored-head.ts';
import type { Session, SessionStore } from '../../sessions/session-store.ts';
import { storeOperation } from '../../sessions/store-operation.ts';
import { type StoreTimeouts, storeTimeouts } from '../../sessions/store-timeouts.ts';
import { appendedSession } from '../../sessions/stored-session.ts';
import { parseTagged, stringifyTagged } from '../../sessions/tagged-json.ts';
import { redisConnection, type RedisConnectionOptions } from './redis-connection.ts';
import { appendScript, pruneOneScript } from './redis-session-scripts.ts';

/** Options of `redisSessionStore`: a URL, your `Redis` client, or your `Cluster` client. */
export type RedisSessionStoreOptions = (RedisConnectionOptions | { client: Cluster; url?: never }) &
  SessionStoreOptions &
  StoreTimeouts & {
    /** Prefix of every key the store writes (no `{` or `}`: the session id is the hash tag). @default 'rxagent:session:' */
    prefix?: string;
  };

/** A `SessionStore` on Redis; `close()` quits the connection it opened from `url`. */
export interface RedisSessionStore extends SessionStore {
  close(): Promise<void>;
}

function metadataOf(id: string, flat: readonly string[]): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) {
    let value: unknown;
    try {
      value = parseTagged(flat[i + 1]!);
    } catch (cause) {
      throw new SessionCorruptError('redis', id, 'metadata', cause);
    }
    Object.defineProperty(metadata, flat[i]!, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return metadata;
}

const PRUNE_BATCH = 500;

/**
 * Sessions in Redis, shared by every process that uses the same server and prefix: one Lua script
 * checks the version, merges metadata and pushes the messages atomically, without reading them
 * back. Every key of a session carries the id as its hash tag and every script gets its keys in
 * `KEYS`, so the store runs on Redis Cluster too; the index of sessions (for `prune`) is written
 * beside the script, and with `ttlMs` each append also drops the index's expired members. A client
 * the store opens bounds connecting and every command (`StoreTimeouts`); every operation is bounded
 * as a whole too.
 * @example redisSessionStore({ url: 'redis://127.0.0.1:6379', ttlMs: 86_400_000 })
 */
export function redisSessionStore(options: RedisSessionStoreOptions): RedisSessionStore {
  const timeouts = storeTimeouts(options);
  const { client, close } = options.client
    ? { client: options.client, close: async () => undefined }
    : redisConnection({ url: options.url }, timeouts);
  const prefix = options.prefix ?? 'rxagent:session:';
  if (/[{}]/.test(prefix)) throw new RangeError('A Redis session store prefix may not hold { or }');
  const now = options.now ?? Date.now;
  const index = `${prefix}index`;
  const keys = (id: string) => {
    const base = `${prefix}{${assertSessionId(id)}}`;
    return [`${base}:head`, `${base}:messages`, `${base}:metadata`];
  };

  const guarded = <T>(operation: string, work: () => Promise<T>): Promise<T> =>
    storeOperation('redis', operation, work, timeouts.operationTimeoutMs);

  const read = async (id: string): Promise<Session | null> => {
    const [head, list, meta] = keys(id);
    return guarded('get', async () => {
      const replies = await client.multi().hgetall(head!).lrange(list!, 0, -1).hgetall(meta!).exec();
      const failed = replies?.find(([error]) => error);
      if (!replies || failed)
        throw new SessionStoreError('redis', 'get', { cause: failed?.[0] ?? 'transaction aborted' });
      const [[, fields], [, messages], [, metadata]] = replies as [
        [unknown, Record<string, string>],
        [unknown, string[]],
        [unknown, Record<string, string>],
      ];
      const version = Number(fields.version ?? 0);
      if (version === 0) return null;
      const stored = {
        version,
        createdAtMs: Number(fields.createdAtMs),
        updatedAtMs: Number(fields.updatedAtMs),
      };
      assertStoredHead('redis', id, stored);
      if (isExpired(stored.updatedAtMs, options.ttlMs, now())) return null;
      return sessionSnapshot({
        ...stored,
        id,
        messages: decodeStoredMessages('redis', id, messages),
        metadata: metadataOf(id, Object.entries(metadata).flat()),
      });
    });
  };

  // The index is in another slot than the session, so it is written beside the script, first: a
  // session is never missing from it (a failed append only leaves a member `prune` drops).
  const indexed = (id: string, at: number): Promise<unknown> =>
    options.ttlMs === undefined
      ? client.zadd(index, at, id)
      : Promise.all([
          client.zadd(index, at, id),
          client.zremrangebyscore(index, '-inf', `(${at - options.ttlMs}`),
        ]);

  return {
    timeoutMs: timeouts.operationTimeoutMs,
    ...redisIdentity(client, prefix),
    get: read,
    append: async (id, messages, appendOptions) => {
      const request = appendRequest(id, messages, appendOptions);
      const fields = Object.entries(request.metadata ?? {});
      const at = now();
      const args = [
        request.expectedVersion ?? '',
        at,
        options.ttlMs ?? '',
        // An append that reaches Redis after its caller was told it failed (the client's command
        // timeout, `queryTimeoutMs` on a client the store opens) must not land: ioredis resends
        // commands after a reconnect, timed-out ones too.
        Date.now() + timeouts.queryTimeoutMs,
        fields.length,
        ...fields.flatMap(([name, value]) =>
          value === undefined ? [name, 'del', ''] : [name, 'set', stringifyTagged(value)],
        ),
        ...request.encoded,
      ];
      const receipt = `${prefix}{${id}}:receipt:${randomUUID()}`;
      return guarded('append', async () => {
        const [, reply] = await Promise.all([
          indexed(id, at),
          appendScript.run(client, [...keys(id), receipt], args),
        ]);
        const [ok, version, createdAtMs, updatedAtMs, metadata, messageCount] = reply as [
          number,
          number,
          number,
          number,
          string[],
          number,
        ];
        if (ok === 0) throw new SessionConflictError(id, request.expectedVersion ?? 0, version);
        if (ok === 2)
          throw new SessionStoreError('redis', 'append', {
            cause: new TimeoutError(timeouts.operationTimeoutMs, 'The append reached Redis after its bound'),
          });
        return appendedSession({
          id,
          metadata: metadataOf(id, metadata),
          version,
          messageCount,
          createdAtMs,
          updatedAtMs,
        });
      });
    },
    delete: async (id) => {
      const [head, list, meta] = keys(id);
      await guarded('delete', async () => {
        await client.del(head!, list!, meta!);
        await client.zrem(index, id);
      });
    },
    prune: async (olderThanMs) => {
      // Strictly older, as the other stores count: a session exactly `olderThanMs` old stays.
      const cutoff = now() - Math.min(olderThanMs, options.ttlMs ?? Infinity) - 1;
      return guarded('prune', async () => {
        let removed = 0;
        for (;;) {
          const ids = await client.zrangebyscore(index, '-inf', cutoff, 'LIMIT', 0, PRUNE_BATCH);
          if (ids.length === 0) return removed;
          // One script per session, each on that session's slot; the index is updated after it.
          await Promise.all(
            ids.map(async (id) => {
              const result = Number(await pruneOneScript.run(client, keys(id), [cutoff]));
              if (result < 0) await client.zadd(index, -result, id);
              else {
                removed += result;
                await client.zrem(index, id);
              }
            }),
          );
        }
      });
    },
    close,
  };
}

/**
 * The backend a store reads and writes (server, database and prefix, never credentials), so an
 * agent's runs on one session wait for each other across store objects (`SessionStore.identity`);
 * none for a Cluster client, whose runs wait per store object.
 */
function redisIdentity(client: Redis | Cluster, prefix: string): { identity?: string } {
  if (!(client instanceof Redis)) return {};
  const { host, port, db, path } = client.options;
  return { identity: `redis:${path ?? `${host}:${port}`}/${db ?? 0}:${prefix}` };
}
