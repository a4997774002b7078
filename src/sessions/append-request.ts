import type { Message } from '../core/index.ts';
import { encodeMessage } from './message-codec.ts';
import { assertSessionId } from './session-id.ts';
import type { AppendOptions } from './session-store.ts';

/** An append checked and encoded before any I/O, so bad input never leaves half a write. */
export interface AppendRequest {
  id: string;
  /** The messages as the text stores keep (see `encodeMessage`). */
  encoded: string[];
  expectedVersion: number | undefined;
  metadata: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Validates an append's id and `expectedVersion` and encodes its messages.
 * @throws InvalidSessionIdError, RangeError (a version that is not a non-negative integer),
 * TypeError (a value no store can keep, e.g. a function)
 * @example appendRequest('s1', [user('hi')], { expectedVersion: 0 })
 */
export function appendRequest(
  id: string,
  messages: readonly Message[],
  options: AppendOptions = {},
): AppendRequest {
  assertSessionId(id);
  const { expectedVersion, metadata } = options;
  if (expectedVersion !== undefined && !(Number.isSafeInteger(expectedVersion) && expectedVersion >= 0)) {
    throw new RangeError(`expectedVersion must be a non-negative integer, got ${String(expectedVersion)}`);
  }
  if (!Array.isArray(messages)) throw new TypeError('messages must be an array of messages');
  return { id, encoded: messages.map(encodeMessage), expectedVersion, metadata };
}

/** Options every session store takes. */
export interface SessionStoreOptions {
  /** Sessions not updated for this long read as absent (and a later append starts them afresh). */
  ttlMs?: number;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

/**
 * Whether a session last updated at `updatedAtMs` has outlived `ttlMs` at `nowMs`.
 * @example isExpired(0, 1000, 1001) // true
 */
export function isExpired(updatedAtMs: number, ttlMs: number | undefined, nowMs: number): boolean {
  return ttlMs !== undefined && nowMs - updatedAtMs > ttlMs;
}
