import { filter, map, type Observable } from 'rxjs';
import type { Agent } from '../../agent/index.ts';
import {
  ApprovalNotPendingError,
  InvalidSessionIdError,
  type Message,
  RunNotFoundError,
  TooManyRunsError,
} from '../../core/index.ts';
import type { Actor } from '../../security/index.ts';
import { readJsonBody } from '../read-json-body.ts';
import { RunRegistry } from '../run-registry.ts';
import type { Runs } from '../runs.ts';
import { parseChatRequestBody } from './chat-request-body.ts';
import { type ChatRun, type ChatRuns, memoryChatRuns } from './chat-runs.ts';
import { claimSession } from './claim-session.ts';
import { approvalAnswers, fromUIMessages } from './from-ui-messages.ts';
import { toUIMessageStream } from './to-ui-message-stream.ts';
import type { UIMessageChunk } from './ui-message-chunk.ts';
import { uiMessageStreamResponse } from './ui-message-stream-response.ts';
import { untilApprovalsWait } from './until-approvals-wait.ts';

/** A turn of a chat to start a run for. */
export interface ChatTurn {
  /** The chat's id (useChat's `id`): the session id when the agent keeps sessions. */
  chatId: string;
  /** The messages to run on: the whole conversation, or only the new user message with sessions. */
  messages: Message[];
  actor?: Actor;
}

/** Runs that `chatHandler` serves, and how a turn starts one (e.g. `durableRuns`). */
export interface ChatRunner {
  runs: Runs;
  /** Starts a run for `turn`; resolves to its id. */
  start(turn: ChatTurn): Promise<string> | string;
  /** Whether the runs keep the conversation (only the new user message is sent). @default false */
  sessions?: boolean;
  /**
   * Whether `actor` may send to a chat this server does not know (another server's, or one from
   * before a restart), claiming it when it is nobody's; kept where the conversation is kept, so
   * a chat id cannot open another actor's conversation. @default always
   */
  claim?(chatId: string, actor: Actor | undefined): Promise<boolean>;
}

/** Options of {@link chatHandler}. */
export interface ChatHandlerOptions {
  /** For an `Agent`: where its runs live. @default new RunRegistry({ graceMs: 900_000 }) */
  registry?: RunRegistry;
  /** Which run answers each chat (for resume and Stop). @default memoryChatRuns() */
  chatRuns?: ChatRuns;
  /** Who asks, from the request (the tools' policy and audit; the owner of the run). */
  actor?: (request: Request) => Actor | undefined;
  /** Quiet time after a pending approval request before the response ends. @default 200 */
  approvalSettleMs?: number;
  /** Comment heartbeats while idle. @default 15_000 */
  heartbeatMs?: number;
  /** The text of the `error` chunk of a failed run. @default an rxagent error's message */
  errorText?: (error: unknown) => string;
  /** The largest request body read (a larger one is a 413, not read further). @default 8 MiB */
  maxBodyBytes?: number;
}

/** The approval id a run's request for a tool call carries. */
const approvalIdOf = (runId: string, toolCallId: string) => `${runId}/${toolCallId}`;

const failure = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status });

function runnerOf(agentOrRunner: Agent | ChatRunner, options: ChatHandlerOptions): ChatRunner {
  if ('runs' in agentOrRunner) return agentOrRunner;
  const agent = agentOrRunner;
  const registry = options.registry ?? new RunRegistry({ graceMs: 900_000 });
  const store = agent.options.sessions;
  const sessions = store !== undefined;
  return {
    runs: registry,
    sessions,
    ...(store
      ? { claim: (chatId: string, actor: Actor | undefined) => claimSession(store, chatId, actor) }
      : {}),
    // admit: an actor's runs are counted on every app server sharing the registry's store.
    start: async ({ chatId, messages, actor }) =>
      (
        await registry.admit(
          ({ approve, signal }) =>
            agent.run(messages, {
              approve,
              signal,
              ...(sessions ? { sessionId: chatId } : {}),
              ...(actor ? { actor } : {}),
            }),
          { actor },
        )
      ).id,
  };
}

/**
 * The server side of the AI SDK's `useChat` (its default transport, unchanged): `POST` with
 * `{ id, messages, trigger }` starts a run (the chat's `id` is the session id when the agent keeps
 * sessions; then only the new user message is sent) and streams it as UI message chunks; a `POST`
 * whose last message carries approval answers decides the waiting calls and streams the rest of
 * the run. `GET …/<id>/stream` (useChat's `resume: true`) replays the chat's running run from its
 * start (204 when none runs). `DELETE …/<id>/stream` stops it: a Stop is explicit, a disconnect or
 * a reload is not one (the run goes on and can be resumed). A response ends when the run ends or
 * waits for approvals (the run waits on the server). A chat belongs to the actor that started it
 * (`actor`): another actor's POST, resume or Stop on it is a 404.
 * @param agentOrRunner an `Agent` (its runs in a `RunRegistry`), or runs with a start function
 * @param options registry, chat-to-run map, actor, approval settle time, heartbeats, error text
 * @example
 * const chat = chatHandler(agent);
 * export const POST = chat; export const GET = chat; export const DELETE = chat;   // app/api/chat/[[...path]]/route.ts
 */
export function chatHandler(
  agentOrRunner: Agent | ChatRunner,
  options: ChatHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const runner = runnerOf(agentOrRunner, options);
  const { runs } = runner;
  const chatRuns = options.chatRuns ?? memoryChatRuns();
  const settleMs = options.approvalSettleMs ?? 200;
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const respond = (
    runId: string,
    actor: Actor | undefined,
    chunks: (events$: Observable<UIMessageChunk>) => Observable<UIMessageChunk> = (c) => c,
  ) =>
    uiMessageStreamResponse(
      chunks(
        runs.attach(runId, actor ? { actor } : {}).pipe(
          map(({ event }) => event),
          untilApprovalsWait(settleMs),
          toUIMessageStream({
            messageId: `msg-${runId}`,
            approvalId: (call) => approvalIdOf(runId, call.id),
            ...(options.errorText ? { errorText: options.errorText } : {}),
          }),
        ),
      ),
      options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs },
    );

  /** The chat's entry, or `undefined` when it is another actor's chat (which is refused). */
  const chatOf = async (chatId: string, actor: Actor | undefined): Promise<ChatRun | null | undefined> => {
    const entry = await chatRuns.get(chatId);
    if (entry?.owner !== undefined && entry.owner !== actor?.id) return undefined;
    return entry ?? null;
  };
  /** The chat's run while it runs or waits. */
  const active = async (entry: ChatRun | null): Promise<string | undefined> => {
    if (!entry) return undefined;
    const status = await runs.status(entry.runId);
    return status === 'running' || status === 'awaiting-approval' || status === 'queued'
      ? entry.runId
      : undefined;
  };
  const notYours = () => failure(404, 'chat_not_found', 'No such chat');

  const send = async (request: Request, actor: Actor | undefined): Promise<Response> => {
    const read = await readJsonBody(request, maxBodyBytes);
    if (read.kind === 'too-large')
      return failure(413, 'chat_request_too_large', `The body is larger than ${read.maxBytes} bytes`);
    const body = parseChatRequestBody(read.kind === 'json' ? read.value : undefined);
    if (!body) return failure(400, 'invalid_chat_request', 'The body is not a useChat request');
    const chat = await chatOf(body.id, actor);
    if (chat === undefined) return notYours();
    if (chat === null && runner.claim) {
      try {
        if (!(await runner.claim(body.id, actor))) return notYours();
      } catch (error) {
        if (InvalidSessionIdError.is(error)) return failure(400, error.code, error.message);
        throw error;
      }
    }
    const answers = approvalAnswers(body.messages);
    if (answers.length > 0) {
      const runId = await active(chat);
      if (runId === undefined)
        return failure(409, 'approval_not_pending', 'No run of this chat waits for a decision');
      // Each answer names the approval request it answers: one this run sent for that call.
      if (answers.some((answer) => answer.approvalId !== approvalIdOf(runId, answer.toolCallId)))
        return failure(409, 'approval_not_pending', 'An answer is for an approval this chat never asked for');
      try {
        for (const answer of answers)
          await runs.decide(
            runId,
            answer.toolCallId,
            { approved: answer.approved, ...(answer.reason === undefined ? {} : { reason: answer.reason }) },
            actor ? { actor } : {},
          );
      } catch (error) {
        if (ApprovalNotPendingError.is(error)) return failure(409, error.code, error.message);
        if (RunNotFoundError.is(error)) return failure(404, error.code, error.message);
        throw error;
      }
      // The rest of the run: what follows the requests just answered (the page holds the rest).
      const answered = new Set(answers.map((answer) => answer.approvalId));
      return respond(runId, actor, (chunks$) =>
        chunks$.pipe(
          filter((chunk, index) => {
            if (index === 0 || answered.size === 0) return true;
            if (chunk.type === 'tool-approval-request') answered.delete(chunk.approvalId);
            return false;
          }),
        ),
      );
    }
    // A new message while a run still answers (or waits): the person moved on, that run stops.
    const previous = await active(chat);
    if (previous !== undefined) await runs.cancel(previous, actor ? { actor } : {});
    const all = fromUIMessages(body.messages);
    const lastUser = all.findLastIndex((message) => message.role === 'user');
    const messages = runner.sessions ? all.slice(lastUser) : all;
    let runId: string;
    try {
      runId = await runner.start({ chatId: body.id, messages, ...(actor ? { actor } : {}) });
    } catch (error) {
      if (TooManyRunsError.is(error)) return failure(503, error.code, error.message);
      throw error;
    }
    await chatRuns.set(body.id, { runId, owner: chat?.owner ?? actor?.id });
    return respond(runId, actor);
  };

  return async (request) => {
    const actor = options.actor?.(request);
    if (request.method === 'POST') return send(request, actor);
    const segments = new URL(request.url).pathname.split('/');
    const chatId = segments.at(-1) === 'stream' ? decodeURIComponent(segments.at(-2) ?? '') : '';
    if (chatId === '' || (request.method !== 'GET' && request.method !== 'DELETE'))
      return failure(404, 'not_found', 'Not a chat route');
    const chat = await chatOf(chatId, actor);
    if (chat === undefined) return notYours();
    const runId = await active(chat);
    if (request.method === 'DELETE') {
      const stopped = runId !== undefined && (await runs.cancel(runId, actor ? { actor } : {}));
      return Response.json({ stopped });
    }
    return runId === undefined ? new Response(null, { status: 204 }) : respond(runId, actor);
  };
}
