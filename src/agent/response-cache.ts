import type { StreamEvent } from '../core/index.ts';

/**
 * Where the agent keeps the events of deterministic model turns (temperature 0, no tool results
 * in flight), keyed by a hash of the normalized request; a hit replays them as a stream.
 * Implementations: `memoryResponseCache()` here, `redisResponseCache(...)` in `rxagent/redis`.
 */
export interface ResponseCache {
  /** The cached events of a turn, or `null` on a miss (or when expired). */
  get(key: string): Promise<readonly StreamEvent[] | null>;
  /** Keeps a whole turn's events (ending with `stream-completed`) for `ttlMs` (no expiry without it). */
  set(key: string, events: readonly StreamEvent[], ttlMs?: number): Promise<void>;
}
