import {
  concat,
  concatMap,
  defer,
  filter,
  from,
  map,
  type Observable,
  of,
  switchMap,
  tap,
  throwError,
} from 'rxjs';
import {
  type ChatModel,
  type ChatRequest,
  type ChatResponse,
  IncompleteStreamError,
  type RxAgentError,
  type ToolCall,
} from '../core/index.ts';
import type { ToolOutcome } from '../tools/index.ts';
import type { AgentEvent } from './agent-event.ts';
import { cachedTurn } from './cached-turn.ts';
import { genAiProviderName } from './gen-ai-provider-name.ts';
import { genAiRequestAttributes } from './gen-ai-request-attributes.ts';
import { isCacheable, responseCacheKey } from './response-cache-key.ts';
import { restartableTurn } from './restartable-turn.ts';
import { fitContext } from './fit-context.ts';
import type { RunState, StepEnd } from './run-state.ts';
import { checkCalls, checkOutcomes } from './step-budgets.ts';
import { afterTools } from './step-end.ts';
import { distinctCallIds } from './distinct-call-ids.ts';
import { stepPlan } from './step-request.ts';
import { stepTools } from './step-tools.ts';
import type { StepEnv } from './step-env.ts';
import { toolMessageOf } from './tool-message.ts';
import { traced } from './traced.ts';

export type { StepEnv } from './step-env.ts';

/** One item of the loop: an event for the subscriber, or the end of a step. */
export type LoopItem = { type: 'event'; event: AgentEvent } | StepEnd;

const event = (value: AgentEvent): LoopItem => ({ type: 'event', event: value });

/** The model turn of a step: cached when deterministic, restarted whole after a mid-stream failure. */
function turnEvents(
  env: StepEnv,
  state: RunState,
  model: ChatModel,
  request: ChatRequest,
): Observable<AgentEvent> {
  const turn = () => model.stream(request);
  const restartable = restartableTurn(turn, state.step, env.stepRetries, (restarted) =>
    env.logger?.warn({ step: restarted.step, err: restarted.error }, 'step restarted'),
  );
  if (!env.cache || !isCacheable(request)) return restartable;
  const cache = env.cache;
  return defer(() => responseCacheKey(model, request)).pipe(
    switchMap((key) => cachedTurn(cache.store, key, restartable, { ttlMs: cache.ttlMs, logger: env.logger })),
  );
}

/**
 * After the turn: run its tools (budgets permitting) and say whether another step follows. With
 * `resumed` (a durable run picked up after its turn was recorded), `step-completed` was already
 * told and the calls it holds outcomes for are not run again.
 */
function afterTurn(
  env: StepEnv,
  state: RunState,
  response: ChatResponse,
  allowed: readonly string[] | undefined,
  resumed?: ReadonlyMap<string, ToolOutcome>,
): Observable<LoopItem> {
  const completed = event({ type: 'step-completed', step: state.step, response });
  // The items that follow the turn, after its `step-completed` unless that was told already.
  const told = (...items: LoopItem[]): Observable<LoopItem> =>
    resumed ? of(...items) : of(completed, ...items);
  env.logger?.debug(
    {
      step: state.step,
      finishReason: response.finishReason,
      toolCalls: response.toolCalls.length,
      usage: response.usage,
    },
    'step completed',
  );
  const steps = [...state.steps, response];
  const calls = response.toolCalls;
  if (calls.length === 0) {
    const done: LoopItem = {
      type: 'done',
      state: { ...state, added: [...state.added, response.message], steps },
    };
    return told(done);
  }
  const checked = checkCalls(state, calls, env.budgets, env.controls.onLimit === 'stop');
  if ('error' in checked) {
    const failed: LoopItem = { type: 'failed', state, error: checked.error };
    return told(failed);
  }
  return defer(() => {
    // Keyed by the call itself, not its id: a server that repeats an id still gets each outcome.
    const outcomes = new Map<ToolCall, ToolOutcome>();
    let toRun = calls;
    if (resumed) {
      for (const call of calls) {
        const known = resumed.get(call.id);
        if (known) outcomes.set(call, known);
      }
      toRun = calls.filter((call) => !outcomes.has(call));
    }
    const tools$ = stepTools(env, state.step, toRun, allowed).pipe(
      tap((value) => {
        if (value.type === 'tool-result') outcomes.set(value.toolCall, value.outcome);
      }),
    );
    const next$ = defer(() => {
      // Tool messages go back in the order of the calls, whatever order the tools finished in.
      const ordered = calls.map((call) => outcomes.get(call)).filter((o) => o !== undefined);
      // A durable run's calls that wait for a decision: the step ends here, its outcomes recorded.
      if (ordered.length < calls.length && env.checkpoints) {
        const pending = calls.filter((call) => !outcomes.has(call));
        return of<LoopItem>({ type: 'parked', state, pending });
      }
      const added = [...state.added, response.message, ...ordered.map(toolMessageOf)];
      const streak = checkOutcomes(state.invalidStreak, ordered, env.budgets, added);
      const next: RunState = {
        ...state,
        step: state.step + 1,
        added,
        steps,
        toolCalls: state.toolCalls + calls.length,
        invalidStreak: 'error' in streak ? state.invalidStreak : streak.streak,
        repeat: checked.repeat,
      };
      if ('error' in streak) return of<LoopItem>({ type: 'failed', state: next, error: streak.error });
      // The step's tools have run: whatever fails from here (a `stopWhen` that throws) fails the
      // run with them in its state, so they are saved like any finished step.
      try {
        return of<LoopItem>(afterTools(next, env.budgets, env.controls));
      } catch (error: unknown) {
        return of<LoopItem>({ type: 'failed', state: next, error });
      }
    });
    return concat(told(), tools$.pipe(map(event)), next$);
  });
}

/**
 * One step: `step-started`, the model turn's events as they arrive, `step-completed`, then the
 * turn's tools and the step's end (`next` or `done`). The model turn is the `chat` span.
 * With `restarted` (a durable run resumed inside this step's turn, whose start and partial text
 * were already told), the step opens with `step-restarted` for that error instead.
 */
export function runStep(env: StepEnv, state: RunState, restarted?: RxAgentError): Observable<LoopItem> {
  return defer(() => {
    const { model, request, allowed } = stepPlan(env, state);
    const started = of(
      event(
        restarted
          ? { type: 'step-restarted', step: state.step, error: restarted }
          : { type: 'step-started', step: state.step },
      ),
    );
    if (!env.context) return concat(started, stepTurn(env, state, model, request, allowed));
    const fitted$ = fitContext(env.context, model, state, request).pipe(
      concatMap((fitted) => {
        // A summary made now is kept in the state, so it is stored with the run and reused.
        const next =
          fitted.summaries.length === 0
            ? state
            : { ...state, prelude: fitted.prelude, overhead: [...state.overhead, ...fitted.summaries] };
        return stepTurn(env, next, model, fitted.request, allowed);
      }),
    );
    return concat(started, fitted$);
  });
}

/** A step's model turn (the `chat` span) and what follows it: its tools and the step's end. */
function stepTurn(
  env: StepEnv,
  state: RunState,
  model: ChatModel,
  request: ChatRequest,
  allowed: readonly string[] | undefined,
): Observable<LoopItem> {
  return defer(() => {
    let response: ChatResponse | undefined;
    const turn$ = traced(
      env.tracer,
      {
        name: `chat ${model.modelId}`,
        kind: 'client',
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.provider.name': genAiProviderName(model.provider),
          'gen_ai.request.model': model.modelId,
          ...genAiRequestAttributes(request),
          'rxagent.step': state.step,
        },
        parent: env.trace,
      },
      (scope) =>
        turnEvents(env, state, model, request).pipe(
          tap((value) => {
            if (value.type !== 'stream-completed') return;
            response = value.response;
            const { usage } = value.response;
            scope.span?.setAttributes({
              // Who answered: for a fallback() model, the one that did.
              'gen_ai.provider.name': genAiProviderName(value.response.provider),
              ...(value.response.responseId ? { 'gen_ai.response.id': value.response.responseId } : {}),
              'gen_ai.response.model': value.response.model,
              'gen_ai.response.finish_reasons': [value.response.finishReason],
              ...(usage
                ? {
                    'gen_ai.usage.input_tokens': usage.inputTokens,
                    'gen_ai.usage.output_tokens': usage.outputTokens,
                  }
                : {}),
            });
          }),
        ),
    );
    const events$ = turn$.pipe(
      filter((value) => value.type !== 'stream-completed'),
      map(event),
    );
    const end$ = defer(() => {
      if (!response) return throwError(() => new IncompleteStreamError());
      const hooks = env.checkpoints;
      if (!hooks) return afterTurn(env, state, response, allowed);
      // A durable run records the turn before anything reports it, each call under its own id.
      const turn = distinctCallIds(response);
      return from(hooks.turn(state, turn)).pipe(concatMap(() => afterTurn(env, state, turn, allowed)));
    });
    return concat(events$, end$);
  });
}

/**
 * A durable run's step picked up after its model turn was recorded: the turn's calls without an
 * outcome in `known` run (approvals as recorded), then the step ends as any step does.
 */
export function resumeStep(
  env: StepEnv,
  state: RunState,
  response: ChatResponse,
  known: ReadonlyMap<string, ToolOutcome>,
): Observable<LoopItem> {
  return defer(() => afterTurn(env, state, response, stepPlan(env, state).allowed, known));
}
