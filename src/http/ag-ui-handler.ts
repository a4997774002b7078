import { EventType, type RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { finalize, from, map, type Observable, tap } from 'rxjs';
import type { Agent } from '../agent/index.ts';
import type { Actor } from '../security/index.ts';
import { fromAgUiMessages, newUserMessages } from './ag-ui-messages.ts';
import { RunRegistry } from './run-registry.ts';
import { type AgUiEvent, toAgUiEvents } from './to-ag-ui-events.ts';
import { toSSEResponse } from './to-sse-response.ts';

/** Options of {@link agUiHandler}. */
export interface AgUiHandlerOptions {
  /**
   * Holds the runs, so one paused for an approval waits for the next request.
   * @default new RunRegistry({ graceMs: 900_000 }) (a person has 15 minutes to decide)
   */
  runs?: RunRegistry;
  /** Who asks, from the request (reaches the tools' policy and audit). */
  actor?: (request: Request) => Actor | undefined;
  /** Comment heartbeats while idle. @default 15_000 */
  heartbeatMs?: number;
}

interface PausedRun {
  runId: string;
  /** The id of the run's `approval-requested` event: the continuation starts after it. */
  lastEventId: string;
  toolCallId: string;
}

/**
 * An AG-UI endpoint for an rxagent `Agent`, for `@ag-ui/client`'s `HttpAgent` and AG-UI front ends:
 * takes a `RunAgentInput` (POST JSON), runs the agent on its messages (only the new user messages,
 * with the `threadId` as session id, when the agent has `sessions`) and answers AG-UI events as SSE.
 * A tool call that needs approval ends the AG-UI run with an `interrupt` outcome while the agent's
 * run waits in a `RunRegistry`; the next `RunAgentInput` whose `resume` answers the interrupt
 * (`status: 'resolved'` with `payload: { approved: true }` approves; anything else rejects) goes on
 * from there. A client that aborts mid-run (`abortRun()`) cancels the agent's run.
 * @param agent the agent to serve
 * @param options the run registry, the actor, heartbeats
 * @example
 * const handle = agUiHandler(agent);
 * export const POST = (request: Request) => handle(request);   // e.g. a Next.js route
 */
export function agUiHandler(
  agent: Agent,
  options: AgUiHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const runs = options.runs ?? new RunRegistry({ graceMs: 900_000 });
  const paused = new Map<string, PausedRun>();
  const sse = (events$: Observable<AgUiEvent>) =>
    toSSEResponse(events$, {
      endFrames: false,
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
    });

  return async (request) => {
    let input: RunAgentInput;
    try {
      input = RunAgentInputSchema.parse(await request.json()) as RunAgentInput;
    } catch {
      return Response.json(
        {
          error: {
            name: 'InvalidRunAgentInput',
            code: 'invalid_input',
            message: 'The body is not a RunAgentInput',
          },
        },
        { status: 400 },
      );
    }
    const { threadId, runId } = input;
    // Interrupts of runs that ended (cancelled, timed out, forgotten) can no longer be answered.
    for (const [key, run] of paused)
      if (runs.statusHere(run.runId) !== 'awaiting-approval') paused.delete(key);
    let registryRunId: string;
    let lastEventId: string | undefined;
    if (input.resume && input.resume.length > 0) {
      const answered = input.resume.map((entry) => ({ entry, run: paused.get(entry.interruptId) }));
      const first = answered[0]?.run;
      if (!first || answered.some(({ run }) => run?.runId !== first.runId)) {
        const refused: AgUiEvent[] = [
          { type: EventType.RUN_STARTED, threadId, runId },
          {
            type: EventType.RUN_ERROR,
            code: 'interrupt_not_found',
            message: 'No paused run has these interrupts',
          },
        ];
        return sse(from(refused));
      }
      for (const { entry, run } of answered) {
        const payload: unknown = entry.payload;
        const approved =
          entry.status === 'resolved' &&
          (payload === true ||
            (typeof payload === 'object' && payload !== null && Reflect.get(payload, 'approved') === true));
        await runs.decide(first.runId, run!.toolCallId, { approved }).catch(() => undefined);
        paused.delete(entry.interruptId);
      }
      registryRunId = first.runId;
      lastEventId = first.lastEventId;
    } else {
      const messages = fromAgUiMessages(input.messages);
      const sessionId = agent.options.sessions ? threadId : undefined;
      const actor = options.actor?.(request);
      registryRunId = runs.start(({ approve, signal }) =>
        agent.run(sessionId === undefined ? messages : newUserMessages(messages), {
          approve,
          signal,
          ...(sessionId === undefined ? {} : { sessionId }),
          ...(actor ? { actor } : {}),
        }),
      ).id;
    }

    const interruptId = (toolCallId: string) => `${registryRunId}/${toolCallId}`;
    let ended = false;
    const events$ = runs.attach(registryRunId, lastEventId === undefined ? {} : { lastEventId }).pipe(
      tap(({ id, event }) => {
        if (event.type === 'approval-requested') {
          const key = interruptId(event.toolCall.id);
          paused.set(key, { runId: registryRunId, lastEventId: id, toolCallId: event.toolCall.id });
        }
      }),
      map(({ event }) => event),
      toAgUiEvents({ threadId, runId, interruptId: (call) => interruptId(call.id) }),
      tap((event) => {
        if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) ended = true;
      }),
      // A client that leaves before the run finished or paused stopped it (AG-UI's abortRun).
      finalize(() => {
        if (!ended) void runs.cancel(registryRunId);
      }),
    );
    return sse(events$);
  };
}
