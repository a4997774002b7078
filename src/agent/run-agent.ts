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
import type { Message } from '../core/index.ts';
import type { Session, SessionStore } from '../sessions/index.ts';
import type { AgentEvent, AgentResult } from './agent-event.ts';
import { abortable } from './abortable.ts';
import { agentResult } from './agent-result.ts';
import { genAiProviderName } from './gen-ai-provider-name.ts';
import { persistRun } from './persist-run.ts';
import { initialState, type RunState } from './run-state.ts';
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
  return runStep(env, initial).pipe(
    expand((item) => (item.type === 'next' ? runStep(env, item.state) : EMPTY)),
  );
}

/**
 * A whole run: read the session (runs on one session wait for each other), loop the steps, append
 * the run's messages with the version read, then `agent-completed`. An error appends nothing
 * (whole finished steps only with `persistPartialRuns`); cancelling appends nothing at all.
 */
export function runAgent(env: RunEnv, input: readonly Message[]): Observable<AgentEvent> {
  const { session } = env;
  const run = (stored: Session | null, trace: StepEnv['trace'], holdFor: HoldFor): Observable<AgentEvent> =>
    defer(() => {
      const version = stored?.version ?? 0;
      let committed = initialState(stored?.messages ?? [], input);
      const save = (state: RunState): Observable<unknown> =>
        session
          ? persistRun(session.store, session.id, state.added, version, session.onConflict, holdFor)
          : of(null);
      // Only a failure of the steps saves their whole finished ones: after a failed final append
      // (perhaps written, its acknowledgement lost), appending a prefix of it could duplicate it.
      const steps$ = stepLoop({ ...env, trace }, committed).pipe(
        tap((item) => {
          if (item.type === 'next') committed = item.state;
        }),
        catchError((error: unknown) =>
          !session?.persistPartialRuns || committed.steps.length === 0
            ? throwError(() => error)
            : concat(
                save(committed).pipe(ignoreElements()),
                throwError(() => error),
              ),
        ),
      );
      return steps$.pipe(
        concatMap((item): Observable<AgentEvent> => {
          if (item.type === 'event') return of(item.event);
          if (item.type === 'next') return EMPTY;
          return save(item.state).pipe(
            map((): AgentEvent => ({
              type: 'agent-completed',
              result: agentResult(item.state, session?.id),
            })),
          );
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
        ? serialised(session.store, session.id, (holdFor) =>
            defer(() => session.store.get(session.id)).pipe(
              concatMap((stored) => run(stored, scope.context, holdFor)),
            ),
          )
        : run(null, scope.context, () => undefined)
      ).pipe(
        tap((event) => event.type === 'agent-completed' && scope.span?.setAttributes(runUsage(event.result))),
      ),
  );
  return traced$.pipe(abortable(env.signal));
}
