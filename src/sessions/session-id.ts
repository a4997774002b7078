import { InvalidSessionIdError } from '../core/index.ts';

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Returns `id` when it is 1–128 characters of `A–Z a–z 0–9 _ -`, else throws
 * `InvalidSessionIdError`; every store checks ids with it before any I/O.
 * @example assertSessionId('user-42_chat') // 'user-42_chat'
 */
export function assertSessionId(id: unknown): string {
  if (typeof id !== 'string' || !SESSION_ID.test(id)) throw new InvalidSessionIdError(String(id));
  return id;
}
