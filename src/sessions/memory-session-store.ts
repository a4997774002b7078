import { type Message, SessionConflictError } from '../core/index.ts';
import { appendRequest, isExpired, type SessionStoreOptions } from './append-request.ts';
import { decodeMessage } from './message-codec.ts';
import { assertSessionId } from './session-id.ts';
import { mergeMetadata, sessionSnapshot } from './session-snapshot.ts';
import type { Session, SessionStore } from './session-store.ts';
import { appendedSession } from './stored-session.ts';
import { parseTagged, stringifyTagged } from './tagged-json.ts';

interface Entry {
  /** Decoded once on append and frozen throughout, so reads share them instead of decoding again. */
  messages: Message[];
  metadata: string;
  version: number;
  createdAtMs: number;
  updatedAtMs: number;
}

/** Freezes a decoded message throughout, except byte arrays, which cannot be frozen while they hold bytes. */
function frozen<T>(value: T): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  for (const child of Object.values(value)) frozen(child);
  return Object.freeze(value);
}

/** Options of `memorySessionStore`. */
export type MemorySessionStoreOptions = SessionStoreOptions;

/**
 * Sessions in this process's memory: for tests and single-process apps that need no restart
 * survival. Appended messages go through the same encoding as the other stores and are kept deeply
 * frozen, so a caller mutating what it appended changes nothing stored (only the bytes of a binary
 * part read back could still be written to: typed arrays cannot be frozen).
 * @example const agent = Agent.builder().model(m).sessions(memorySessionStore()).build()
 */
export function memorySessionStore(options: MemorySessionStoreOptions = {}): SessionStore {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  function live(id: string, at: number): Entry | undefined {
    const entry = entries.get(id);
    if (entry && isExpired(entry.updatedAtMs, options.ttlMs, at)) {
      entries.delete(id);
      return undefined;
    }
    return entry;
  }

  function snapshot(id: string, entry: Entry): Session {
    return sessionSnapshot({
      id,
      messages: entry.messages,
      metadata: parseTagged(entry.metadata) as Record<string, unknown>,
      version: entry.version,
      createdAtMs: entry.createdAtMs,
      updatedAtMs: entry.updatedAtMs,
    });
  }

  // Each method runs synchronously inside one promise job, so appends to one id never interleave.
  return {
    get: async (id) => {
      assertSessionId(id);
      const entry = live(id, now());
      return entry ? snapshot(id, entry) : null;
    },
    append: async (id, messages, appendOptions) => {
      const request = appendRequest(id, messages, appendOptions);
      const at = now();
      const current = live(id, at);
      const version = current?.version ?? 0;
      if (request.expectedVersion !== undefined && request.expectedVersion !== version) {
        throw new SessionConflictError(id, request.expectedVersion, version);
      }
      const metadata = mergeMetadata(
        current ? (parseTagged(current.metadata) as Record<string, unknown>) : {},
        request.metadata,
      );
      // The array grows in place (reads copy it), so an append costs the same at any length.
      const added = request.encoded.map((text) => frozen(decodeMessage(text)));
      const kept = current?.messages ?? [];
      for (const entry of added) kept.push(entry);
      const entry: Entry = {
        messages: kept,
        metadata: stringifyTagged(metadata),
        version: version + 1,
        createdAtMs: current?.createdAtMs ?? at,
        updatedAtMs: at,
      };
      entries.set(id, entry);
      return appendedSession({ ...entry, id, metadata, messageCount: kept.length });
    },
    delete: async (id) => {
      assertSessionId(id);
      entries.delete(id);
    },
    prune: async (olderThanMs) => {
      const at = now();
      let removed = 0;
      for (const [id, entry] of entries) {
        if (at - entry.updatedAtMs > olderThanMs || isExpired(entry.updatedAtMs, options.ttlMs, at)) {
          entries.delete(id);
          removed += 1;
        }
      }
      return removed;
    },
  };
}
