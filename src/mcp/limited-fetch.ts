import type { FetchLike } from '@modelcontextprotocol/client';
import { McpError } from '../core/index.ts';

/** The longest message read from a server unless told otherwise: as over stdio, the SDK's 10 MiB. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/**
 * What a stream says when one of its events is over the limit: it ends the event under way (its
 * partial data fails to parse and is dropped), then answers the request the stream belongs to with
 * a JSON-RPC error, so the call fails at once instead of waiting for its timeout.
 */
function overLimitEvent(requestId: string | number, message: string): Uint8Array {
  const error = { jsonrpc: '2.0', id: requestId, error: { code: -32603, message } };
  return new TextEncoder().encode(`\n\nevent: message\ndata: ${JSON.stringify(error)}\n\n`);
}

/**
 * A body bounded per message: the whole body for JSON (past `limit` it errors), each event (up to
 * its blank line) for `text/event-stream`, so a long-lived stream of small events is never cut
 * while one endless event is: the stream then ends, answering `requestId` with an error.
 */
function limitedBody(
  body: ReadableStream<Uint8Array>,
  events: boolean,
  limit: number,
  tooLarge: () => McpError,
  requestId: string | number | undefined,
) {
  let size = 0;
  let lineStart = true;
  let afterCr = false;
  // A line ends at CR, LF or CRLF; an empty line ends the event.
  const endLine = () => {
    size = lineStart ? 0 : size + 1;
    lineStart = true;
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!events) size += chunk.length;
        else
          for (const byte of chunk) {
            if (byte === LF && afterCr) afterCr = false;
            else if (byte === LF || byte === CR) {
              endLine();
              afterCr = byte === CR;
            } else {
              afterCr = false;
              size++;
              lineStart = false;
            }
          }
        if (size <= limit) return controller.enqueue(chunk);
        if (!events || requestId === undefined) return controller.error(tooLarge());
        controller.enqueue(overLimitEvent(requestId, tooLarge().message));
        controller.terminate();
      },
    }),
  );
}

/** The id of the JSON-RPC request a POST body carries, if it is one. */
function requestIdOf(init: RequestInit | undefined): string | number | undefined {
  if (typeof init?.body !== 'string') return undefined;
  try {
    const id: unknown = Reflect.get(Object(JSON.parse(init.body)), 'id');
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `next` with every response body bounded per message (see `limitedBody`): past `limit` bytes the
 * body errors with an `McpError` (`disconnected`) instead of a hostile or broken server filling
 * the host's memory with one answer or one endless event.
 */
export function limitedFetch(server: string, limit: number, next: FetchLike = fetch): FetchLike {
  const tooLarge = () =>
    new McpError(`${server}: the server sent a message over ${limit} bytes; dropping it`, {
      server,
      reason: 'disconnected',
    });
  return async (url, init) => {
    const response = await next(url, init);
    if (!response.body) return response;
    const events = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    const body = limitedBody(response.body, events, limit, tooLarge, requestIdOf(init));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
