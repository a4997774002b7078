import {
  catchError,
  concat,
  concatMap,
  defer,
  EMPTY,
  expand,
  ignoreElements,
  map,
  type Observable,
  of,
  tap,
  throwError,
} from 'rxjs';
import { BudgetExceededError, MaxStepsError, type Message, type RxAgentError } from '../core/index.ts';
import type { Session, SessionStore } from '../sessions/index.ts';
import type { AgentEvent, AgentResult } from './agent-event.ts';
import { abortable } from './abortable.ts';
import { agentResult } from './agent-result.ts';
import { genAiProviderName } from './gen-ai-provider-name.ts';
import { persistRun } from './persist-run.ts';
import { initialState, type RunLimit, type RunState } from './run-state.ts';
import { type LoopItem, runStep, type StepEnv } from './run-step.ts';
import { type HoldFor, serialised } from './session-queue.ts';
import { traced } from './traced.ts';

/** The run's token usage as `gen_ai.usage.*` attributes of its `invoke_agent` span. */
function runUsage(result: AgentResult): Record<string, number> {
  return {
    'gen_ai.usage.input_tokens': result.usage.inputTokens,
    'gen_ai.usage.output_tokens': result.usage.outputTokens,
  };
}

/** Where a run keeps its conversation, if anywhere. */
export interface RunSession {
  store: SessionStore;
  id: string;
  onConflict: 'error' | 'rebase';
  persistPartialRuns: boolean;
  /** Merged into the session's metadata with the run's append. */
  metadata: Record<string, unknown> | undefined;
  /** How long the run waits for earlier runs on the session. */
  waitMs: number;
}

/** A run's environment: the step's, plus the run's session and signal. */
export interface RunEnv extends Omit<StepEnv, 'trace'> {
  session: RunSession | undefined;
  signal: AbortSignal | undefined;
  agentName: string | undefined;
}

/**
 * The steps of a run as one stream: `expand` runs the next step whenever a step ends with `next`,
 * until one ends with `done` or an error (a budget, a model failure) ends the run.
 */
export function stepLoop(env: StepEnv, initial: RunState): Observable<LoopItem> {
  return loopFrom(env, runStep(env, initial));
}

/**
 * The step loop from a first step given as a stream: a fresh step (`runStep`), or a durable run's
 * step resumed from its checkpoint (`resumeStep`, or `runStep` restarted inside its turn).
 */
export function loopFrom(
  env: StepEnv,
  first: Observable<LoopItem>,
  restarted?: RxAgentError,
): Observable<LoopItem> {
  // With `restarted`: a durable run resumed after a step's last outcome, inside the next step's turn.
  let restart = restarted;
  return first.pipe(
    expand((item) => {
      if (item.type !== 'next') return EMPTY;
      const error = restart;
      restart = undefined;
      return runStep(env, item.state, error);
    }),
  );
}

/**
 * A whole run: read the session (runs on one session wait for each other), loop the steps, append
 * the run's messages with the version read, then `agent-completed`. Whatever ends the run after
 * finished steps (a budget, `stopWhen`, a failure) appends them whole (with `persistPartialRuns`,
 * the default); a limit with `onLimit: 'stop'` completes; cancelling appends nothing at all. Once
 * the final append is sent, an abort no longer fails the run: it was saved (the append itself is
 * bounded by the store's `timeoutMs`, so that wait has an end).
 */
export function runAgent(env: RunEnv, input: readonly Message[]): Observable<AgentEvent> {
  const { session } = env;
  let saving = false;
  const run = (stored: Session | null, trace: StepEnv['trace'], holdFor: HoldFor): Observable<AgentEvent> =>
    defer(() => {
      const version = stored?.version ?? 0;
      let committed = initialState(stored?.messages ?? [], input);
      const save = (state: RunState): Observable<unknown> =>
        session
          ? persistRun(
              session.store,
              session.id,
              [...state.prelude, ...state.added],
              version,
              session.onConflict,
              holdFor,
              env.logger,
              session.metadata,
            )
          : of(null);
      const complete = (state: RunState, limit: RunLimit | undefined): Observable<AgentEvent> =>
        defer(() => {
          saving = true;
          return save(state);
        }).pipe(
          map((): AgentEvent => ({
            type: 'agent-completed',
            result: agentResult(state, session?.id, limit),
          })),
        );
      // Only a failure of the steps saves their whole finished ones: after a failed final append
      // (perhaps written, its acknowledgement lost), appending a prefix of it could duplicate it.
      const fail = (state: RunState, error: unknown): Observable<AgentEvent> => {
        if (env.controls.onLimit === 'stop' && BudgetExceededError.is(error))
          return complete(state, MaxStepsError.is(error) ? 'max-steps' : 'budget');
        if (!session?.persistPartialRuns || state.steps.length === 0) return throwError(() => error);
        const saved$ = save(state).pipe(
          ignoreElements(),
          // The run's own error is what the caller needs; the failed save is logged beside it.
          catchError((saveError: unknown) => {
            env.logger?.error({ err: saveError, sessionId: session.id }, 'saving a failed run failed');
            return EMPTY;
          }),
        );
        return concat(
          saved$,
          throwError(() => error),
        );
      };
      const steps$ = stepLoop({ ...env, trace }, committed).pipe(
        tap((item) => {
          if (item.type === 'next') committed = item.state;
        }),
        catchError((error: unknown) => of<LoopItem>({ type: 'failed', state: committed, error })),
      );
      return steps$.pipe(
        concatMap((item): Observable<AgentEvent> => {
          switch (item.type) {
            case 'event':
              return of(item.event);
            case 'next':
              return EMPTY;
            case 'done':
              return complete(item.state, item.limit);
            case 'failed':
              return fail(item.state, item.error);
            case 'parked': // only a durable run's checkpoints park a call
              return throwError(() => new TypeError('a call parked outside a durable run'));
            default: {
              const never: never = item;
              return throwError(() => new TypeError(`unknown loop item ${String(never)}`));
            }
          }
        }),
        tap({
          error: (error: unknown) =>
            env.logger?.error(
              { err: error, step: committed.step, sessionId: session?.id },
              'agent run failed',
            ),
        }),
      );
    });
  const traced$ = traced(
    env.tracer,
    {
      name: env.agentName ? `invoke_agent ${env.agentName}` : 'invoke_agent',
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': genAiProviderName(env.model.provider),
        'gen_ai.request.model': env.model.modelId,
        ...(env.agentName ? { 'gen_ai.agent.name': env.agentName } : {}),
        ...(session ? { 'gen_ai.conversation.id': session.id } : {}),
      },
      parent: undefined,
    },
    (scope) =>
      (session
        ? serialised(
            session.store,
            session.id,
            (holdFor) =>
              defer(() => session.store.get(session.id)).pipe(
                concatMap((stored) => run(stored, scope.context, holdFor)),
              ),
            session.waitMs,
          )
        : run(null, scope.context, () => undefined)
      ).pipe(
        tap((event) => event.type === 'agent-completed' && scope.span?.setAttributes(runUsage(event.result))),
      ),
  );
  return traced$.pipe(abortable(env.signal, () => saving));
}
