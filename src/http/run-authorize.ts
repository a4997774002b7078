import type { Actor } from '../security/actor.ts';

/** What is asked of a run. */
export type RunAction = 'attach' | 'cancel' | 'decide';

/** A run as its guard sees it: its id and the id of the actor that started it. */
export interface RunResource {
  type: 'run';
  id: string;
  /** The id of the actor that started the run; `undefined` when it was started without one. */
  owner: string | undefined;
}

/**
 * Decides whether `actor` may do `action` on a run. Refused, the call behaves as for an unknown
 * run (guessing or leaking an id gives nothing).
 */
export type RunAuthorize = (
  actor: Actor | undefined,
  run: RunResource,
  action: RunAction,
) => boolean | Promise<boolean>;

/**
 * The default guard: a run started without an actor is open to anyone who holds its id; a run
 * started with one only to an actor with the same id.
 */
export const sameActor: RunAuthorize = (actor, run) => run.owner === undefined || actor?.id === run.owner;

/**
 * `then(permitted)` once `authorize` has answered: at once when it answers at once (so the effects
 * on a run held in this process are synchronous), else when its Promise settles.
 */
export function whenAuthorized<T>(
  authorize: RunAuthorize,
  actor: Actor | undefined,
  run: RunResource,
  action: RunAction,
  then: (permitted: boolean) => T,
): Promise<T> {
  try {
    const answer = authorize(actor, run, action);
    return typeof answer === 'boolean' ? Promise.resolve(then(answer)) : answer.then(then);
  } catch (error) {
    return Promise.reject(error);
  }
}
