import type { Actor } from '../../security/index.ts';
import type { SessionStore } from '../../sessions/index.ts';
import { claimOwner, ownerIn } from '../claim-owner.ts';

/** The session metadata key holding the id of the actor a chat's session belongs to. */
export const CHAT_OWNER_KEY = 'chatOwner';

/**
 * Whether `actor` may send to the session `chatId`: yes when it is the actor's, or nobody's (then
 * it becomes the actor's, in the session's metadata, so every app server on the store agrees and
 * a restart forgets nothing). A session another actor claimed, or claims at the same moment, is
 * refused.
 * @param store the agent's session store
 * @param chatId the chat's id, which is the session's id
 * @param actor who asks (none: only a session nobody claimed)
 */
export async function claimSession(
  store: SessionStore,
  chatId: string,
  actor: Actor | undefined,
): Promise<boolean> {
  const session = await store.get(chatId);
  const owner = ownerIn(session?.metadata, CHAT_OWNER_KEY);
  if (owner !== undefined || actor === undefined) return owner === actor?.id;
  return (await claimOwner(store, chatId, CHAT_OWNER_KEY, actor.id, session?.version ?? 0)) === actor.id;
}
