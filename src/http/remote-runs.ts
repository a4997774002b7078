import { catchError, from, map, type Observable, of } from 'rxjs';
import { ApprovalNotPendingError, RunNotFoundError } from '../core/index.ts';
import type { Actor } from '../security/actor.ts';
import type { RunAction, RunAuthorize } from './run-authorize.ts';
import type { RunControl, SharedRunState } from './run-control.ts';
import type { RunStatus } from './runs.ts';

/**
 * What a `RunRegistry` does for runs another app server runs, through the store's `control`
 * (without one, every run another server runs is unknown here): their owner, status and watchers,
 * and cancel and decide sent to their server. A call `authorize` refuses is as for an unknown run.
 */
export class RemoteRuns {
  readonly #control: RunControl | undefined;
  readonly #authorize: RunAuthorize;

  constructor(control: RunControl | undefined, authorize: RunAuthorize) {
    this.#control = control;
    this.#authorize = authorize;
  }

  /** The owner of the run (`undefined` without a shared control); errors with RunNotFoundError for an unknown run. */
  owner$(runId: string): Observable<string | undefined> {
    const control = this.#control;
    if (!control) return of(undefined);
    return from(control.state(runId)).pipe(
      map((state) => {
        if (!state) throw new RunNotFoundError(runId);
        return state.owner;
      }),
    );
  }

  async status(runId: string): Promise<RunStatus | null> {
    return ((await this.#control?.state(runId)) ?? null)?.status ?? null;
  }

  /**
   * Whether a reader on any server watches the run. When the store cannot tell (Redis stalled or
   * restarting), true: a grace stop is a reclaim, not a stop anyone asked for, so it waits for an
   * answer (the registry asks again after the next `graceMs`).
   */
  watched$(runId: string): Observable<boolean> {
    const control = this.#control;
    return control ? from(control.watched(runId)).pipe(catchError(() => of(true))) : of(false);
  }

  /** @returns whether the run's server was told to stop a run that had not ended */
  async cancel(runId: string, actor: Actor | undefined): Promise<boolean> {
    const found = await this.#permitted(runId, actor, 'cancel');
    if (!found) return false;
    const { state, control } = found;
    if (state.status !== 'running' && state.status !== 'awaiting-approval') return false;
    return control.send(runId, { type: 'cancel' });
  }

  /** @throws RunNotFoundError, ApprovalNotPendingError */
  async decide(
    runId: string,
    toolCallId: string,
    approved: boolean,
    actor: Actor | undefined,
  ): Promise<void> {
    const found = await this.#permitted(runId, actor, 'decide');
    if (!found) throw new RunNotFoundError(runId);
    if (!found.state.pending.includes(toolCallId)) throw new ApprovalNotPendingError(runId, toolCallId);
    if (!(await found.control.send(runId, { type: 'decide', toolCallId, approved })))
      throw new RunNotFoundError(runId);
  }

  /** The run's state, when it is known and `actor` may `action` it. */
  async #permitted(
    runId: string,
    actor: Actor | undefined,
    action: RunAction,
  ): Promise<{ state: SharedRunState; control: RunControl } | undefined> {
    const control = this.#control;
    const state = await control?.state(runId);
    if (!control || !state) return undefined;
    const ok = await this.#authorize(actor, { type: 'run', id: runId, owner: state.owner }, action);
    return ok ? { state, control } : undefined;
  }
}
