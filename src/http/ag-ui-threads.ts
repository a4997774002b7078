import { sha256Hex } from '../core/web-crypto.ts';
import type { Actor } from '../security/actor.ts';
import type { SessionStore } from '../sessions/index.ts';
import { claimOwner, ownerIn } from './claim-owner.ts';

/** An AG-UI thread as its guard sees it: its id and the id of the actor that started it. */
export interface AgUiThread {
  type: 'thread';
  id: string;
  owner: string | undefined;
}

/** Decides whether `actor` may run in, or resume a run of, a thread. */
export type AgUiThreadAuthorize = (
  actor: Actor | undefined,
  thread: AgUiThread,
  action: 'run' | 'resume',
) => boolean | Promise<boolean>;

/** The default: a thread is its first actor's (open to all when it was started without one). */
export const sameThreadActor: AgUiThreadAuthorize = (actor, thread) =>
  thread.owner === undefined || actor?.id === thread.owner;

/** The metadata key of a thread's ownership record holding the id of the actor it belongs to. */
export const THREAD_OWNER_KEY = 'threadOwner';

/**
 * Whether `actor` may `action` the AG-UI thread `threadId`, per `authorize`, with the thread's
 * owner read from shared state: an ownership record in the agent's session store (the session
 * `o-` + the SHA-256 of the thread id, whose metadata names the owner), so every app server on the
 * store, and a restarted one, agree on who owns a thread; a server that never saw the thread
 * cannot be used to claim it. A thread nobody owns becomes the actor's when allowed; two actors
 * claiming it at once are judged again against the one that won. Without a store the thread holds
 * nothing on the server (the client sends its history), so it has no owner.
 * @throws what the store throws (e.g. `SessionStoreError`)
 */
export async function threadAllowed(
  store: SessionStore | undefined,
  threadId: string,
  actor: Actor | undefined,
  authorize: AgUiThreadAuthorize,
  action: 'run' | 'resume',
): Promise<boolean> {
  const judge = (owner: string | undefined) =>
    authorize(actor, { type: 'thread', id: threadId, owner }, action);
  if (!store) return judge(undefined);
  const recordId = await threadRecordId(threadId);
  const record = await store.get(recordId);
  const owner = ownerIn(record?.metadata, THREAD_OWNER_KEY);
  if (!(await judge(owner))) return false;
  if (owner !== undefined || actor === undefined) return true;
  const claimed = await claimOwner(store, recordId, THREAD_OWNER_KEY, actor.id, record?.version ?? 0);
  // Claimed meanwhile by someone else: judged against what the record says now.
  return claimed !== undefined && (claimed === actor.id || judge(claimed));
}

/** The id of a thread's ownership record: a valid session id whatever characters the thread id holds. */
async function threadRecordId(threadId: string): Promise<string> {
  return `o-${await sha256Hex(threadId)}`;
}
