import type { Client } from '@modelcontextprotocol/client';
import { Observable } from 'rxjs';
import type { McpToolEvent } from './mcp-tool-event.ts';
import { toMcpError } from './to-mcp-error.ts';

/** Options of one call. */
export interface McpCallOptions {
  /** Cancels the call (the SDK tells the server with `notifications/cancelled`). */
  signal?: AbortSignal;
  /** Longest wait with no progress; each progress notification restarts it. */
  timeoutMs?: number;
  /** Longest the call may take, progress or not. */
  maxTimeoutMs?: number;
}

/** Everything `callToolEvents` needs of one call. */
export interface CallToolRequest {
  server: string;
  /** The client to call on, read when the call starts (throwing an `McpError` when there is none). */
  client: () => Client;
  name: string;
  args: Record<string, unknown>;
  timeoutMs: number;
  maxTimeoutMs: number;
  signal: AbortSignal | undefined;
  /** Called when the call has a result (the server answered). */
  onResult?: () => void;
}

/**
 * Controllers of calls that ended without being aborted, for later calls: a Node `AbortController`
 * (an `EventTarget`) is a large share of a stdio round trip's own cost, and one whose signal never
 * fired, and which the SDK no longer listens to (it removes its listener when the request
 * settles), serves the next call as well as a new one.
 */
const spareControllers: AbortController[] = [];

/**
 * One `tools/call` as a cold Observable: progress events, then the result. Unsubscribing aborts the
 * request, which the SDK turns into `notifications/cancelled` (or an aborted HTTP stream). The SDK
 * validates `structuredContent` against the tool's `outputSchema` from its listing cache.
 */
export function callToolEvents(request: CallToolRequest): Observable<McpToolEvent> {
  return new Observable<McpToolEvent>((subscriber) => {
    const client = request.client();
    const controller = spareControllers.pop() ?? new AbortController();
    const outer = request.signal;
    const forward = () => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    let settled = false;
    client
      .callTool(
        { name: request.name, arguments: request.args },
        {
          signal: controller.signal,
          timeout: request.timeoutMs,
          resetTimeoutOnProgress: true,
          maxTotalTimeout: request.maxTimeoutMs,
          onprogress: ({ progress, total, message }) =>
            subscriber.next({
              type: 'progress',
              progress,
              ...(total !== undefined ? { total } : {}),
              ...(message !== undefined ? { message } : {}),
            }),
        },
      )
      .then(
        (result) => {
          settled = true;
          request.onResult?.();
          subscriber.next({
            type: 'result',
            content: result.content ?? [],
            ...(result.structuredContent !== undefined
              ? { structuredContent: result.structuredContent }
              : {}),
            isError: result.isError === true,
          });
          subscriber.complete();
        },
        (error: unknown) => {
          settled = true;
          subscriber.error(toMcpError(request.server, error, 'disconnected'));
        },
      );
    return () => {
      outer?.removeEventListener('abort', forward);
      // A subscriber that left before the answer cancels the call; a settled call's controller,
      // never aborted, is kept for the next one.
      if (!settled) controller.abort();
      else if (!controller.signal.aborted && spareControllers.length < 16) spareControllers.push(controller);
    };
  });
}
