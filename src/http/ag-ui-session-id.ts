import type { RunAgentInput } from '@ag-ui/core';
import { sha256Hex } from '../core/web-crypto.ts';
import type { Actor } from '../security/actor.ts';

/**
 * The default session of an AG-UI thread: the thread id without an actor; with one, an id made
 * from the actor's id and the thread id (`t-` and 64 hex digits of their SHA-256), so a thread id
 * names the session of that actor only: even where a custom `authorize` lets another actor into a
 * thread, the session id never leads it to someone else's history.
 * @example await actorThreadSessionId({ threadId: 'thread-a', ... }, { id: 'alice' }) // 't-5c1e…'
 */
export async function actorThreadSessionId(input: RunAgentInput, actor: Actor | undefined): Promise<string> {
  if (actor === undefined) return input.threadId;
  // JSON keeps the two ids apart whatever characters they hold.
  return `t-${await sha256Hex(JSON.stringify([actor.id, input.threadId]))}`;
}
