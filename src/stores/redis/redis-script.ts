import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

/** A Lua script run by its SHA1, loaded again when the server has forgotten it (after a restart). */
export interface RedisScript {
  run(client: Redis | Cluster, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
}

/**
 * Wraps Lua source as a script sent with `EVALSHA`, falling back to `EVAL` on `NOSCRIPT`.
 * @example await redisScript('return 1').run(client, [], [])
 */
export function redisScript(source: string): RedisScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return {
    run: async (client, keys, args) => {
      try {
        return await client.evalsha(sha, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
        return client.eval(source, keys.length, ...keys, ...args);
      }
    },
  };
}
