import type { Actor } from '../security/actor.ts';

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

/**
 * Who owns each AG-UI thread this handler has served: the first actor to use a thread id owns it.
 * Bounded (`max` threads, the least recently used forgotten first). In-process: across app
 * servers, give each user their own session ids with `agUiHandler`'s `sessionId` option.
 */
export class AgUiThreads {
  readonly #owners = new Map<string, string | undefined>();
  readonly #max: number;

  constructor(max = 10_000) {
    this.#max = max;
  }

  /** The thread as known (its owner), claiming it for `actor` when it is new. */
  claim(threadId: string, actor: Actor | undefined): AgUiThread {
    const owner = this.#owners.has(threadId) ? this.#owners.get(threadId) : actor?.id;
    this.#owners.delete(threadId);
    this.#owners.set(threadId, owner);
    if (this.#owners.size > this.#max) {
      const oldest = this.#owners.keys().next().value;
      if (oldest !== undefined) this.#owners.delete(oldest);
    }
    return { type: 'thread', id: threadId, owner };
  }
}
