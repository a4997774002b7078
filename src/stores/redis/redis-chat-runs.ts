import type { ChatRun, ChatRuns } from '../../http/ui-message-stream/chat-runs.ts';
import { type RedisConnectionOptions, redisConnection } from './redis-connection.ts';

/** Options of {@link redisChatRuns}. */
export type RedisChatRunsOptions = RedisConnectionOptions & {
  /** Key prefix. @default 'rxagent:chat:' */
  prefix?: string;
  /** How long a chat's entry is kept after its last run started. @default 86_400_000 (a day) */
  ttlMs?: number;
};

/** {@link ChatRuns} on Redis, and how to let go of its client. */
export interface RedisChatRuns extends ChatRuns {
  /** Quits the client when this created it. */
  close(): Promise<void>;
}

/**
 * Which run answers each useChat chat, kept in Redis so every app server behind a load balancer
 * finds it: a resume GET or a Stop that lands on another server than the POST reaches the run
 * (with a `RunRegistry` on a shared run event store). An entry that is not a chat run reads as none.
 * @param options the connection, key prefix and TTL
 * @example chatHandler(agent, { registry, chatRuns: redisChatRuns({ url: 'redis://127.0.0.1:6379' }) })
 */
export function redisChatRuns(options: RedisChatRunsOptions): RedisChatRuns {
  const { client, close } = redisConnection(options);
  const prefix = options.prefix ?? 'rxagent:chat:';
  const ttlMs = options.ttlMs ?? 86_400_000;
  return {
    get: async (chatId) => {
      const raw = await client.get(prefix + chatId);
      if (raw === null) return undefined;
      try {
        const value = JSON.parse(raw) as Partial<ChatRun>;
        if (typeof value.runId !== 'string') return undefined;
        return { runId: value.runId, ...(typeof value.owner === 'string' ? { owner: value.owner } : {}) };
      } catch {
        return undefined;
      }
    },
    set: async (chatId, run) => {
      await client.set(prefix + chatId, JSON.stringify(run), 'PX', ttlMs);
    },
    close,
  };
}
