import { SessionConflictError } from '../core/index.ts';
import type { SessionStore } from '../sessions/index.ts';

/** The owner a session's metadata names under `key`, if any. */
export function ownerIn(
  metadata: Readonly<Record<string, unknown>> | undefined,
  key: string,
): string | undefined {
  const value = metadata?.[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Makes `actorId` the owner (under `key` in the session's metadata) of a session that has none,
 * read at `version`: version-checked, so of two claims at once one wins, and every app server on
 * the store agrees. Resolves with the owner after the claim: `actorId`, or whoever claimed first.
 */
export async function claimOwner(
  store: SessionStore,
  id: string,
  key: string,
  actorId: string,
  version: number,
): Promise<string | undefined> {
  try {
    await store.append(id, [], { expectedVersion: version, metadata: { [key]: actorId } });
    return actorId;
  } catch (error) {
    if (!SessionConflictError.is(error)) throw error;
    return ownerIn((await store.get(id))?.metadata, key);
  }
}
