import type { Message } from '../core/index.ts';
import type { Session } from './session-store.ts';

/** The fields of a stored session, with times in epoch milliseconds. */
export interface SessionFields {
  id: string;
  messages: readonly Message[];
  metadata: Record<string, unknown>;
  version: number;
  createdAtMs: number;
  updatedAtMs: number;
}

/**
 * A frozen `Session` from a store's fields (its arrays and metadata are copied, then frozen).
 * @example sessionSnapshot({ id: 'a', messages: [], metadata: {}, version: 1, createdAtMs: 0, updatedAtMs: 0 })
 */
export function sessionSnapshot(fields: SessionFields): Session {
  return Object.freeze({
    id: fields.id,
    messages: Object.freeze([...fields.messages]),
    metadata: Object.freeze({ ...fields.metadata }),
    version: fields.version,
    createdAt: new Date(fields.createdAtMs).toISOString(),
    updatedAt: new Date(fields.updatedAtMs).toISOString(),
  });
}

/**
 * The shallow merge every store applies to metadata on append; a key set to `undefined` is removed.
 * @example mergeMetadata({ a: 1, b: 2 }, { b: undefined, c: 3 }) // { a: 1, c: 3 }
 */
export function mergeMetadata(
  current: Readonly<Record<string, unknown>>,
  patch: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === undefined) Reflect.deleteProperty(merged, key);
    // defineProperty keeps a `__proto__` key as data instead of changing the prototype.
    else Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}
