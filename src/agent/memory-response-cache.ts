import type { StreamEvent } from '../core/index.ts';
import type { ResponseCache } from './response-cache.ts';

/** Options of `memoryResponseCache`. */
export interface MemoryResponseCacheOptions {
  /** Entries kept; the least recently used goes first. @default 1000 */
  maxEntries?: number;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

/**
 * A response cache in this process's memory, least recently used entries evicted past `maxEntries`.
 * @example new Agent({ model, temperature: 0, responseCache: memoryResponseCache() })
 */
export function memoryResponseCache(options: MemoryResponseCacheOptions = {}): ResponseCache {
  const maxEntries = options.maxEntries ?? 1000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { events: readonly StreamEvent[]; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return Promise.resolve(null);
      entries.delete(key);
      if (entry.expiresAt <= now()) return Promise.resolve(null);
      entries.set(key, entry); // most recently used last
      return Promise.resolve(entry.events);
    },
    set(key, events, ttlMs) {
      entries.delete(key);
      entries.set(key, {
        events: Object.freeze([...events]),
        expiresAt: ttlMs === undefined ? Infinity : now() + ttlMs,
      });
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
      return Promise.resolve();
    },
  };
}
