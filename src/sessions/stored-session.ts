import { decodeStoredMessages, decodeStoredMetadata } from './message-codec.ts';
import type { SessionHead } from './plan-append.ts';
import { assertStoredHead } from './stored-head.ts';
import { sessionSnapshot } from './session-snapshot.ts';
import type { AppendedSession, Session } from './session-store.ts';

/**
 * The frozen session a stored head and its encoded messages describe, or a `SessionCorruptError`
 * (naming `store`, the id and the position) when any of it is not a session: a message that does
 * not decode, metadata that is not an object, or a head whose numbers are not a head's or that
 * commits another number of messages than were read (a missing row).
 * @example storedSession('postgres', 's1', head, ['{"role":"user","content":"hi"}'])
 */
export function storedSession(
  store: string,
  id: string,
  head: SessionHead,
  bodies: readonly string[],
): Session {
  assertStoredHead(store, id, head, bodies.length);
  return sessionSnapshot({
    id,
    messages: decodeStoredMessages(store, id, bodies),
    metadata: decodeStoredMetadata(store, id, head.metadata),
    version: head.version,
    createdAtMs: head.createdAtMs,
    updatedAtMs: head.updatedAtMs,
  });
}

/** The fields of an appended session's head, metadata already decoded. */
export interface AppendedFields {
  id: string;
  metadata: Record<string, unknown>;
  version: number;
  messageCount: number;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * What an append returns: the frozen head, without the messages.
 * @example appendedSession({ id: 's1', metadata: {}, version: 1, messageCount: 2, createdAtMs: 0, updatedAtMs: 0 })
 */
export function appendedSession(fields: AppendedFields): AppendedSession {
  return Object.freeze({
    id: fields.id,
    metadata: Object.freeze({ ...fields.metadata }),
    version: fields.version,
    messageCount: fields.messageCount,
    createdAt: new Date(fields.createdAtMs).toISOString(),
    updatedAt: new Date(fields.updatedAtMs).toISOString(),
  });
}
