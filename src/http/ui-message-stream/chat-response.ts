import { map, type Observable } from 'rxjs';
import type { Actor } from '../../security/index.ts';
import { BodyPacer } from '../body-pacer.ts';
import type { Runs } from '../runs.ts';
import { toUIMessageStream } from './to-ui-message-stream.ts';
import type { UIMessageChunk } from './ui-message-chunk.ts';
import { uiMessageStreamResponse } from './ui-message-stream-response.ts';
import { untilApprovalsWait } from './until-approvals-wait.ts';

/** How `chatHandler` streams a run. */
export interface ChatResponseOptions {
  /** Quiet time after a pending approval request before the response ends. */
  settleMs: number;
  /** Comment heartbeats while idle. */
  heartbeatMs?: number | undefined;
  /** The text of the `error` chunk of a failed run. */
  errorText?: ((error: unknown) => string) | undefined;
}

/** The approval id a run's request for a tool call carries. */
export const approvalIdOf = (runId: string, toolCallId: string) => `${runId}/${toolCallId}`;

/** A JSON error answer: `{ error: { code, message } }`. */
export const chatFailure = (status: number, code: string, message: string) =>
  Response.json({ error: { code, message } }, { status });

/**
 * A run as useChat's response: its events as UI message chunks over SSE, until it ends or waits
 * for approvals (each request's approval id names the run and the call).
 * @param chunks what to do with the chunks before they are sent (all of them by default)
 */
export function chatRunResponse(
  runs: Runs,
  runId: string,
  actor: Actor | undefined,
  options: ChatResponseOptions,
  chunks: (events$: Observable<UIMessageChunk>) => Observable<UIMessageChunk> = (c) => c,
): Response {
  // A client that does not read stops the run's read (not the run), up to the body's pauseBytes.
  const pacer = new BodyPacer();
  return uiMessageStreamResponse(
    chunks(
      pacer.pace(runs.attach(runId, actor ? { actor } : {})).pipe(
        map(({ event }) => event),
        untilApprovalsWait(options.settleMs),
        toUIMessageStream({
          messageId: `msg-${runId}`,
          approvalId: (call) => approvalIdOf(runId, call.id),
          ...(options.errorText ? { errorText: options.errorText } : {}),
        }),
      ),
    ),
    { pacer, ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }) },
  );
}
