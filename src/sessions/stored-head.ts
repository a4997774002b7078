import { SessionCorruptError } from '../core/index.ts';

/** The numbers of a stored session's head, as a store read them. */
export interface StoredHeadNumbers {
  version: number;
  createdAtMs: number;
  updatedAtMs: number;
  /** How many messages the head commits, where the store keeps that count. */
  messageCount?: number;
}

const MAX_TIME_MS = 8.64e15;

function problem(head: StoredHeadNumbers): string | undefined {
  if (!(Number.isSafeInteger(head.version) && head.version > 0)) return `version ${head.version}`;
  for (const key of ['createdAtMs', 'updatedAtMs'] as const) {
    const value = head[key];
    if (!(Number.isSafeInteger(value) && Math.abs(value) <= MAX_TIME_MS)) return `${key} ${value}`;
  }
  const count = head.messageCount;
  if (count !== undefined && !(Number.isSafeInteger(count) && count >= 0)) return `messageCount ${count}`;
  return undefined;
}

/**
 * Checks a live session's head read from a store: a positive integer version, times a `Date` can
 * hold, a non-negative message count, and, when the messages were read too, exactly that many.
 * @throws SessionCorruptError (position `'head'`) naming `store`, the id and what is wrong
 * @example assertStoredHead('postgres', 's1', head, bodies.length)
 */
export function assertStoredHead(
  store: string,
  id: string,
  head: StoredHeadNumbers,
  messagesRead?: number,
): void {
  const wrong =
    problem(head) ??
    (messagesRead !== undefined && head.messageCount !== undefined && messagesRead !== head.messageCount
      ? `the head commits ${head.messageCount} messages, ${messagesRead} are stored`
      : undefined);
  if (wrong) throw new SessionCorruptError(store, id, 'head', new TypeError(`not a session head: ${wrong}`));
}
