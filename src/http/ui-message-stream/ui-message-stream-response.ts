import type { Observable } from 'rxjs';
import type { BodyPacer } from '../body-pacer.ts';
import { toSSEResponse } from '../to-sse-response.ts';
import type { UIMessageChunk } from './ui-message-chunk.ts';

/** The headers of the AI SDK's UI message stream, beside the SSE ones. */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-vercel-ai-ui-message-stream': 'v1',
});

/** Options of {@link uiMessageStreamResponse}. */
export interface UIMessageStreamResponseInit {
  status?: number;
  headers?: HeadersInit;
  /** Comment heartbeats while idle (the page's parser skips them). @default 15_000 */
  heartbeatMs?: number;
  /** Paces the run whose chunks these are by the body's reads (see `BodyPacer`). */
  pacer?: BodyPacer;
}

/**
 * A Web `Response` serving UI message chunks the way the AI SDK's `useChat` reads them: one
 * `data: <chunk JSON>` server-sent event per chunk, `text/event-stream` with the protocol's
 * `x-vercel-ai-ui-message-stream: v1` header. A client that goes away unsubscribes from `chunks$`
 * (with a `RunRegistry` the run goes on: a disconnect is not a stop).
 * @param chunks$ the chunks, e.g. `agent.run(input).pipe(toUIMessageStream())`
 * @param init status, extra headers, heartbeats
 * @example
 * export const POST = async (req: Request) =>
 *   uiMessageStreamResponse(agent.run(await lastUserText(req)).pipe(toUIMessageStream()));
 */
export function uiMessageStreamResponse(
  chunks$: Observable<UIMessageChunk>,
  init: UIMessageStreamResponseInit = {},
): Response {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) headers.set(name, value);
  return toSSEResponse(chunks$, {
    endFrames: false,
    headers,
    ...(init.status === undefined ? {} : { status: init.status }),
    ...(init.heartbeatMs === undefined ? {} : { heartbeatMs: init.heartbeatMs }),
    ...(init.pacer === undefined ? {} : { pacer: init.pacer }),
  });
}
