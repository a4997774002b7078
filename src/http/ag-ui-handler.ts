import { EventType, type RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { concat, finalize, from, map, type Observable, of, tap } from 'rxjs';
import type { Agent } from '../agent/index.ts';
import { TooManyRunsError } from '../core/index.ts';
import type { Actor } from '../security/index.ts';
import { agUiFrontend } from './ag-ui-frontend.ts';
import { AgUiFrontendResults } from './ag-ui-frontend-results.ts';
import { fromAgUiMessages, newUserMessages } from './ag-ui-messages.ts';
import { actorThreadSessionId } from './ag-ui-session-id.ts';
import { type AgUiThreadAuthorize, sameThreadActor, threadAllowed } from './ag-ui-threads.ts';
import { publicError } from './public-error.ts';
import { readJsonBody } from './read-json-body.ts';
import { RunRegistry } from './run-registry.ts';
import { type AgUiEvent, toAgUiEvents } from './to-ag-ui-events.ts';
import { BodyPacer } from './body-pacer.ts';
import { toSSEResponse } from './to-sse-response.ts';

/** Options of {@link agUiHandler}. */
export interface AgUiHandlerOptions {
  /**
   * Holds the runs, so one paused for an approval or a front-end tool waits for the next request.
   * @default new RunRegistry({ graceMs: 900_000 }) (a person has 15 minutes to decide)
   */
  runs?: RunRegistry;
  /**
   * How long a paused run waits (its interrupts' `expiresAt`): the graceMs of the registry made here.
   * @default `runs.graceMs` when `runs` is given, else 900_000
   */
  pauseMs?: number;
  /** Who asks, from the request (owns the thread and its runs; reaches the tools' policy and audit). */
  actor?: (request: Request) => Actor | undefined;
  /**
   * Who may run in or resume a thread; its owner is read from the agent's session store.
   * @default sameThreadActor (the thread's first actor)
   */
  authorize?: AgUiThreadAuthorize;
  /**
   * The session of a thread, for an agent with sessions.
   * @default actorThreadSessionId: the thread id without an actor, else one session per actor and thread
   */
  sessionId?: (input: RunAgentInput, actor: Actor | undefined) => string | Promise<string>;
  /** The largest body read (a `RunAgentInput` carries the whole history); larger is a 413. @default 8_388_608 (8 MiB) */
  maxBodyBytes?: number;
  /** Comment heartbeats while idle. @default 15_000 */
  heartbeatMs?: number;
  /**
   * The most characters of JSON the input's front-end tool schemas may hold together; more is a
   * 400 (`invalid_tool_schema`). Compiling them costs the event loop about 5 µs per character (up to
   * about 35 µs for patterns with large repeats).
   * @default 16_384
   */
  maxToolSchemaChars?: number;
}

/** A run parked at a call: an approval (an interrupt) or a front-end tool's call. */
interface PausedCall {
  runId: string;
  threadId: string;
  owner: string | undefined;
  toolCallId: string;
  /** Where the AG-UI run that announced it stopped reading: the continuation starts after it. */
  batch: { lastEventId: string };
}

/**
 * An AG-UI endpoint for an rxagent `Agent`, for `@ag-ui/client`'s `HttpAgent` and AG-UI front ends
 * (CopilotKit): takes a `RunAgentInput` (POST JSON), runs the agent on its messages (only the new
 * user messages, with the thread's session, when the agent has `sessions`) and answers AG-UI events
 * as SSE, beginning with STATE_SNAPSHOT of the input's `state` when it has one. The input's `tools`
 * are offered to the model as front-end tools (a call ends the AG-UI run with `pendingToolCallIds`;
 * the next input's tool message answers it and the run goes on), its `context` and `state` reach
 * the model in the system prompt. Tool calls that need approval end the AG-UI run with one
 * `interrupt` outcome listing every call of the step (each with `expiresAt`); the next input's
 * `resume` answers them (`status: 'resolved'` with `payload: { approved: true }` approves; anything
 * else rejects). With sessions, a thread belongs to its first actor, recorded in the session store
 * (so on every app server): another actor's run or resume on it is a RUN_ERROR (`authorize`
 * decides); an interrupt is only ever resumed by its own actor and thread. A client that aborts mid-run (`abortRun()`) cancels the run.
 * @param agent the agent to serve
 * @param options the run registry, the actor and its guard, sessions, heartbeats
 * @example
 * const handle = agUiHandler(agent, { actor: (request) => userOf(request) });
 * export const POST = (request: Request) => handle(request);   // e.g. a Next.js route
 */
export function agUiHandler(
  agent: Agent,
  options: AgUiHandlerOptions = {},
): (request: Request) => Promise<Response> {
  // A paused run is one nobody watches: it lives the registry's graceMs.
  const pauseMs = options.pauseMs ?? options.runs?.graceMs ?? 900_000;
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const runs = options.runs ?? new RunRegistry({ graceMs: pauseMs });
  const authorize = options.authorize ?? sameThreadActor;
  const paused = new Map<string, PausedCall>();
  // The results front ends sent for their tools' calls, until the call's `execute` reads them.
  const results = new AgUiFrontendResults({ ttlMs: pauseMs });
  const sse = (events$: Observable<AgUiEvent>, pacer?: BodyPacer) =>
    toSSEResponse(events$, {
      endFrames: false,
      ...(pacer === undefined ? {} : { pacer }),
      ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
    });
  const refuse = (input: RunAgentInput, code: string, message: string) =>
    sse(
      from<AgUiEvent[]>([
        { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId },
        { type: EventType.RUN_ERROR, code, message },
      ]),
    );

  return async (request) => {
    const body = await readJsonBody(request, maxBodyBytes);
    if (body.kind === 'too-large') {
      const message = `The body is larger than ${body.maxBytes} bytes`;
      return Response.json(
        { error: { name: 'RxAgentError', code: 'body_too_large', message } },
        { status: 413 },
      );
    }
    const parsed = body.kind === 'json' ? RunAgentInputSchema.safeParse(body.value) : undefined;
    if (!parsed?.success) {
      const error = {
        name: 'InvalidRunAgentInput',
        code: 'invalid_input',
        message: 'The body is not a RunAgentInput',
      };
      return Response.json({ error }, { status: 400 });
    }
    const input = parsed.data as RunAgentInput;
    const { threadId, runId } = input;
    const actor = options.actor?.(request);
    // Calls of runs that ended (cancelled, timed out, forgotten) can no longer be answered.
    for (const [key, call] of paused)
      if (runs.statusHere(call.runId) !== 'awaiting-approval') paused.delete(key);
    const resuming = (input.resume?.length ?? 0) > 0;
    const allowed = await threadAllowed(
      agent.options.sessions,
      threadId,
      actor,
      authorize,
      resuming ? 'resume' : 'run',
    ).catch((error: unknown) => error);
    if (allowed !== true) {
      const { code, message } =
        allowed === false ? { code: 'thread_not_found', message: 'No such thread' } : publicError(allowed);
      return refuse(input, code, message);
    }

    // What this input answers: interrupts (resume) and front-end tool calls (tool messages).
    const answers: { call: PausedCall; approved: boolean; result?: string }[] = [];
    for (const entry of input.resume ?? []) {
      const call = paused.get(entry.interruptId);
      // Another thread's or another actor's interrupt is as unknown as a made-up one.
      if (!call || call.threadId !== threadId || call.owner !== actor?.id)
        return refuse(input, 'interrupt_not_found', 'No paused run has these interrupts');
      const payload: unknown = entry.payload;
      const approved =
        entry.status === 'resolved' &&
        (payload === true ||
          (typeof payload === 'object' && payload !== null && Reflect.get(payload, 'approved') === true));
      answers.push({ call, approved });
    }
    for (const message of input.messages) {
      if (message.role !== 'tool') continue;
      const call = paused.get(frontendKey(threadId, message.toolCallId));
      if (!call || call.owner !== actor?.id) continue;
      const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
      answers.push({ call, approved: true, result: content });
    }
    const first = answers[0]?.call;
    if (first && answers.some(({ call }) => call.runId !== first.runId))
      return refuse(input, 'interrupt_not_found', 'These answers belong to different runs');

    let frontend: ReturnType<typeof agUiFrontend>;
    try {
      frontend = agUiFrontend(agent, input, results, actor, options.maxToolSchemaChars);
    } catch (error) {
      const { code, message } = publicError(error);
      return refuse(input, code, message);
    }
    let registryRunId: string;
    let lastEventId: string | undefined;
    if (first) {
      for (const { call, approved, result } of answers) {
        if (result !== undefined)
          results.set({ threadId: call.threadId, actor: call.owner, toolCallId: call.toolCallId }, result);
        await runs.decide(call.runId, call.toolCallId, { approved }, { actor }).catch(() => undefined);
        paused.delete(`${call.runId}/${call.toolCallId}`);
        paused.delete(frontendKey(call.threadId, call.toolCallId));
      }
      registryRunId = first.runId;
      lastEventId = first.batch.lastEventId;
    } else {
      const messages = fromAgUiMessages(input.messages);
      const sessionOf = options.sessionId ?? actorThreadSessionId;
      const sessionId = agent.options.sessions ? await sessionOf(input, actor) : undefined;
      try {
        // admit: an actor's runs are counted on every app server sharing the registry's store.
        registryRunId = (
          await runs.admit(
            ({ approve, signal }) =>
              frontend.agent.run(sessionId === undefined ? messages : newUserMessages(messages), {
                approve,
                signal,
                ...(sessionId === undefined ? {} : { sessionId }),
                ...(actor ? { actor } : {}),
              }),
            { actor },
          )
        ).id;
      } catch (error) {
        if (!TooManyRunsError.is(error)) throw error;
        return refuse(input, error.code, error.message);
      }
    }

    const batch = { lastEventId: lastEventId ?? '' };
    let ended = false;
    const started: AgUiEvent[] = [{ type: EventType.RUN_STARTED, threadId, runId }];
    if (input.state !== undefined && input.state !== null)
      started.push({ type: EventType.STATE_SNAPSHOT, snapshot: input.state as Record<string, unknown> });
    // A client that does not read stops the run's read (not the run), up to the body's pauseBytes.
    const pacer = new BodyPacer();
    const attached = pacer.pace(
      runs.attach(registryRunId, {
        ...(lastEventId === undefined ? {} : { lastEventId }),
        actor,
      }),
    );
    const events$ = attached.pipe(
      tap(({ id, event }) => {
        batch.lastEventId = id;
        if (event.type !== 'approval-requested') return;
        const call: PausedCall = {
          runId: registryRunId,
          threadId,
          owner: actor?.id,
          toolCallId: event.toolCall.id,
          batch,
        };
        paused.set(keyOf(call, frontend.tools, event.toolCall.name), call);
      }),
      map(({ event }) => event),
      toAgUiEvents({
        threadId,
        runId,
        omitRunStarted: true,
        interruptId: (call) => `${registryRunId}/${call.id}`,
        frontendTools: frontend.tools,
        expiresAt: () => new Date(Date.now() + pauseMs).toISOString(),
      }),
      tap((event) => {
        if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) ended = true;
      }),
      // A client that leaves before the run finished or paused stopped it (AG-UI's abortRun).
      finalize(() => {
        if (!ended) void runs.cancel(registryRunId, { actor });
      }),
    );
    return sse(concat(of(...started), events$), pacer);
  };
}

/** Where a paused call is found: by interrupt id (`<runId>/<toolCallId>`), or a front-end tool's by thread and call. */
function keyOf(call: PausedCall, frontendTools: ReadonlySet<string>, name?: string): string {
  return name !== undefined && frontendTools.has(name)
    ? frontendKey(call.threadId, call.toolCallId)
    : `${call.runId}/${call.toolCallId}`;
}

function frontendKey(threadId: string, toolCallId: string): string {
  return `${threadId}#${toolCallId}`;
}
