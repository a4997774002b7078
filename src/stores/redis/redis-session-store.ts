import { randomUUID } from 'node:crypto';
import { SessionConflictError, SessionStoreError } from '../../core/index.ts';
import { appendRequest, isExpired, type SessionStoreOptions } from '../../sessions/append-request.ts';
import { decodeMessage } from '../../sessions/message-codec.ts';
import { assertSessionId } from '../../sessions/session-id.ts';
import { sessionSnapshot } from '../../sessions/session-snapshot.ts';
import type { Session, SessionStore } from '../../sessions/session-store.ts';
import { storeOperation } from '../../sessions/store-operation.ts';
import { parseTagged, stringifyTagged } from '../../sessions/tagged-json.ts';
import { redisConnection, type RedisConnectionOptions } from './redis-connection.ts';
import { appendScript, pruneScript } from './redis-session-scripts.ts';

/** Options of `redisSessionStore`. */
export type RedisSessionStoreOptions = RedisConnectionOptions &
  SessionStoreOptions & {
    /** Prefix of every key the store writes. @default 'rxagent:session:' */
    prefix?: string;
  };

/** A `SessionStore` on Redis; `close()` quits the connection it opened from `url`. */
export interface RedisSessionStore extends SessionStore {
  close(): Promise<void>;
}

function metadataOf(flat: readonly string[]): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const value = parseTagged(flat[i + 1]!);
    Object.defineProperty(metadata, flat[i]!, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return metadata;
}

/**
 * Sessions in Redis, shared by every process that uses the same server and prefix: one Lua script
 * checks the version, merges metadata and pushes the messages atomically. With `ttlMs` the keys
 * also expire in Redis, so abandoned sessions free their memory.
 * @example redisSessionStore({ url: 'redis://127.0.0.1:6379', ttlMs: 86_400_000 })
 */
export function redisSessionStore(options: RedisSessionStoreOptions): RedisSessionStore {
  const { client, close } = redisConnection(options);
  const prefix = options.prefix ?? 'rxagent:session:';
  const now = options.now ?? Date.now;
  const keys = (id: string) => {
    const base = `${prefix}{${assertSessionId(id)}}`;
    return [`${base}:head`, `${base}:messages`, `${base}:metadata`, `${prefix}index`];
  };

  const guarded = <T>(operation: string, work: () => Promise<T>): Promise<T> =>
    storeOperation('redis', operation, work);

  const read = async (id: string): Promise<Session | null> => {
    const [head, list, meta] = keys(id);
    const replies = await guarded('get', () =>
      client.multi().hgetall(head!).lrange(list!, 0, -1).hgetall(meta!).exec(),
    );
    const failed = replies?.find(([error]) => error);
    if (!replies || failed)
      throw new SessionStoreError('redis', 'get', { cause: failed?.[0] ?? 'transaction aborted' });
    const [[, fields], [, messages], [, metadata]] = replies as [
      [unknown, Record<string, string>],
      [unknown, string[]],
      [unknown, Record<string, string>],
    ];
    const version = Number(fields.version ?? 0);
    const updatedAtMs = Number(fields.updatedAtMs);
    if (version === 0 || isExpired(updatedAtMs, options.ttlMs, now())) return null;
    return sessionSnapshot({
      id,
      messages: messages.map(decodeMessage),
      metadata: metadataOf(Object.entries(metadata).flat()),
      version,
      createdAtMs: Number(fields.createdAtMs),
      updatedAtMs,
    });
  };

  return {
    get: read,
    append: async (id, messages, appendOptions) => {
      const request = appendRequest(id, messages, appendOptions);
      const fields = Object.entries(request.metadata ?? {});
      const args = [
        id,
        request.expectedVersion ?? '',
        now(),
        options.ttlMs ?? '',
        fields.length,
        ...fields.flatMap(([name, value]) =>
          value === undefined ? [name, 'del', ''] : [name, 'set', stringifyTagged(value)],
        ),
        ...request.encoded,
      ];
      const receipt = `${prefix}{${id}}:receipt:${randomUUID()}`;
      const reply = await guarded('append', () => appendScript.run(client, [...keys(id), receipt], args));
      const [ok, version, createdAtMs, updatedAtMs, metadata, encoded] = reply as [
        number,
        number,
        number,
        number,
        string[],
        string[],
      ];
      if (ok === 0) throw new SessionConflictError(id, request.expectedVersion ?? 0, version);
      return sessionSnapshot({
        id,
        messages: encoded.map(decodeMessage),
        metadata: metadataOf(metadata),
        version,
        createdAtMs,
        updatedAtMs,
      });
    },
    delete: async (id) => {
      const [head, list, meta, index] = keys(id);
      await guarded('delete', () => client.multi().del(head!, list!, meta!).zrem(index!, id).exec());
    },
    prune: async (olderThanMs) => {
      // Strictly older, as the other stores count: a session exactly `olderThanMs` old stays.
      const cutoff = now() - Math.min(olderThanMs, options.ttlMs ?? Infinity) - 1;
      return Number(await guarded('prune', () => pruneScript.run(client, [], [prefix, cutoff])));
    },
    close,
  };
}
