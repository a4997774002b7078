import type { Agent } from '../../agent/index.ts';
import { InvalidSessionIdError, TooManyRunsError } from '../../core/index.ts';
import type { Actor } from '../../security/index.ts';
import { readJsonBody } from '../read-json-body.ts';
import { RunRegistry } from '../run-registry.ts';
import { answerApprovals } from './chat-decisions.ts';
import { chatLookup } from './chat-lookup.ts';
import { parseChatRequestBody } from './chat-request-body.ts';
import { chatFailure, type ChatResponseOptions, chatRunResponse } from './chat-response.ts';
import { agentChatRunner, type ChatRunner } from './chat-runner.ts';
import { type ChatRuns, memoryChatRuns } from './chat-runs.ts';
import { approvalAnswers, fromUIMessages } from './from-ui-messages.ts';

export type { ChatRunner, ChatTurn } from './chat-runner.ts';

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
  const runner =
    'runs' in agentOrRunner
      ? agentOrRunner
      : agentChatRunner(agentOrRunner, options.registry ?? new RunRegistry({ graceMs: 900_000 }));
  const { runs } = runner;
  const chatRuns = options.chatRuns ?? memoryChatRuns();
  const maxBodyBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const streaming: ChatResponseOptions = {
    settleMs: options.approvalSettleMs ?? 200,
    heartbeatMs: options.heartbeatMs,
    errorText: options.errorText,
  };
  const { chatOf, active } = chatLookup(chatRuns, runs);
  const notYours = () => chatFailure(404, 'chat_not_found', 'No such chat');

  const send = async (request: Request, actor: Actor | undefined): Promise<Response> => {
    const read = await readJsonBody(request, maxBodyBytes);
    if (read.kind === 'too-large')
      return chatFailure(413, 'chat_request_too_large', `The body is larger than ${read.maxBytes} bytes`);
    const body = parseChatRequestBody(read.kind === 'json' ? read.value : undefined);
    if (!body) return chatFailure(400, 'invalid_chat_request', 'The body is not a useChat request');
    const chat = await chatOf(body.id, actor);
    if (chat === undefined) return notYours();
    if (chat === null && runner.claim) {
      try {
        if (!(await runner.claim(body.id, actor))) return notYours();
      } catch (error) {
        if (InvalidSessionIdError.is(error)) return chatFailure(400, error.code, error.message);
        throw error;
      }
    }
    const answers = approvalAnswers(body.messages);
    if (answers.length > 0) return answerApprovals(runs, await active(chat), answers, actor, streaming);
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
      if (TooManyRunsError.is(error)) return chatFailure(503, error.code, error.message);
      throw error;
    }
    await chatRuns.set(body.id, { runId, owner: chat?.owner ?? actor?.id });
    return chatRunResponse(runs, runId, actor, streaming);
  };

  return async (request) => {
    const actor = options.actor?.(request);
    if (request.method === 'POST') return send(request, actor);
    const segments = new URL(request.url).pathname.split('/');
    const chatId = segments.at(-1) === 'stream' ? decodeURIComponent(segments.at(-2) ?? '') : '';
    if (chatId === '' || (request.method !== 'GET' && request.method !== 'DELETE'))
      return chatFailure(404, 'not_found', 'Not a chat route');
    const chat = await chatOf(chatId, actor);
    if (chat === undefined) return notYours();
    const runId = await active(chat);
    if (request.method === 'DELETE') {
      const stopped = runId !== undefined && (await runs.cancel(runId, actor ? { actor } : {}));
      return Response.json({ stopped });
    }
    return runId === undefined
      ? new Response(null, { status: 204 })
      : chatRunResponse(runs, runId, actor, streaming);
  };
}
