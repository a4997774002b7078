import {
  catchError,
  concatMap,
  defer,
  EMPTY,
  finalize,
  firstValueFrom,
  from,
  map,
  merge,
  mergeMap,
  type Observable,
  Subject,
  throwError,
} from 'rxjs';
import { ApprovalParkedError, type ToolCall } from '../core/index.ts';
import type { Actor } from '../security/index.ts';
import type { ApprovalDecision, ToolRegistry } from '../tools/index.ts';
import type { AgentEvent } from './agent-event.ts';
import type { AgentLogger } from './agent-logger.ts';
import type { Approver } from './agent-options.ts';
import type { AgentTracer, TraceContext } from './agent-tracer.ts';
import { approvalDecision } from './approval-decision.ts';
import type { StepCheckpoints } from './step-checkpoints.ts';
import { traced } from './traced.ts';

/** What running a step's tools needs from the run. */
export interface ToolsEnv {
  registry: ToolRegistry;
  actor: Actor | undefined;
  sessionId: string | undefined;
  approve: Approver | undefined;
  approvalTimeoutMs: number | undefined;
  concurrency: number;
  tracer: AgentTracer | undefined;
  trace: TraceContext | undefined;
  logger: AgentLogger | undefined;
  /** A durable run's checkpoints (`driveDurableRun`); absent in process. */
  checkpoints?: StepCheckpoints | undefined;
}

/**
 * One call through the registry, as events: `approval-requested` when the tool needs a person's
 * decision (the registry asks through `approve`, after `authorize` and before `execute`), then one
 * `tool-result`. Unsubscribing cancels the call (its `ctx.signal` aborts).
 */
function callEvents(
  env: ToolsEnv,
  step: number,
  toolCall: ToolCall,
  allowed: readonly string[] | undefined,
): Observable<AgentEvent> {
  return traced(
    env.tracer,
    {
      name: `execute_tool ${toolCall.name}`,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': toolCall.name,
        'gen_ai.tool.call.id': toolCall.id,
        'gen_ai.tool.type': 'function',
      },
      parent: env.trace,
    },
    (scope) =>
      defer(() => {
        // The registry's approve callback is a Promise API; the request it triggers is a value of
        // this call's stream, so it goes through a Subject that lives exactly as long as the call.
        const approvals = new Subject<AgentEvent>();
        const hooks = env.checkpoints;
        const approve = (request: {
          toolCall: ToolCall;
          signal: AbortSignal;
        }): Promise<boolean | ApprovalDecision> => {
          // A durable run asks no one here: a recorded decision, or the call parks.
          if (hooks) {
            const decided = hooks.decision(request.toolCall);
            return decided === undefined
              ? Promise.reject(new ApprovalParkedError(request.toolCall.id))
              : Promise.resolve(decided);
          }
          approvals.next({ type: 'approval-requested', step, toolCall });
          const asked = { step, toolCall: request.toolCall, ...(env.actor ? { actor: env.actor } : {}) };
          const withSession = env.sessionId === undefined ? asked : { ...asked, sessionId: env.sessionId };
          return firstValueFrom(
            approvalDecision(env.approve, withSession, request.signal, env.approvalTimeoutMs),
          );
        };
        // `invoke` rather than `invoke$`: the call's signal is aborted only when the run lets go of
        // an unfinished call, not after every call (an abort builds a DOMException, a stack trace).
        const controller = new AbortController();
        let settled = false;
        const options = {
          signal: controller.signal,
          approve,
          ...(env.actor ? { actor: env.actor } : {}),
          ...(allowed ? { allowed } : {}),
          ...(hooks ? { beforeExecute: (call: ToolCall) => hooks.started(call) } : {}),
        };
        const invoked = from(env.registry.invoke(toolCall, options));
        // A durable run records each outcome before its event; a parked call ends with neither.
        const outcome$ = hooks
          ? invoked.pipe(
              concatMap((outcome) => from(hooks.outcome(toolCall, outcome)).pipe(map(() => outcome))),
              catchError((error: unknown) => {
                if (!ApprovalParkedError.is(error)) return throwError(() => error);
                settled = true;
                return EMPTY;
              }),
            )
          : invoked;
        const result$ = outcome$.pipe(
          map((outcome): AgentEvent => {
            settled = true;
            env.logger?.debug(
              {
                step,
                tool: toolCall.name,
                toolCallId: toolCall.id,
                status: outcome.status,
                durationMs: outcome.durationMs,
              },
              'tool call ended',
            );
            scope.span?.setAttribute('rxagent.tool.status', outcome.status);
            if (outcome.status !== 'ok') {
              const { cause } = outcome.error ?? {};
              scope.fail(
                cause instanceof Error ? cause.name : outcome.status,
                outcome.error?.message ?? outcome.status,
              );
            }
            return { type: 'tool-result', step, toolCall, outcome };
          }),
          finalize(() => {
            if (!settled) controller.abort();
            approvals.complete();
          }),
        );
        return merge(approvals, result$);
      }),
  );
}

/**
 * A step's tool calls, at most `concurrency` at once; one pending approval holds up only its own
 * call. Emits each call's events as they happen; every call ends with exactly one `tool-result`.
 * With `allowed` (the tools the step offered), a call of any other tool is answered `not_found`.
 */
export function stepTools(
  env: ToolsEnv,
  step: number,
  calls: readonly ToolCall[],
  allowed?: readonly string[],
): Observable<AgentEvent> {
  return from(calls).pipe(mergeMap((call) => callEvents(env, step, call, allowed), env.concurrency));
}
