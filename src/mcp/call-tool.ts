import type { Client } from '@modelcontextprotocol/client';
import { Observable } from 'rxjs';
import { linkAbort } from '../core/linked-abort.ts';
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
  client: Client;
  name: string;
  args: Record<string, unknown>;
  timeoutMs: number;
  maxTimeoutMs: number;
  signal: AbortSignal | undefined;
}

/**
 * One `tools/call` as a cold Observable: progress events, then the result. Unsubscribing aborts the
 * request, which the SDK turns into `notifications/cancelled` (or an aborted HTTP stream). The SDK
 * validates `structuredContent` against the tool's `outputSchema` from its listing cache.
 */
export function callToolEvents(request: CallToolRequest): Observable<McpToolEvent> {
  return new Observable<McpToolEvent>((subscriber) => {
    const link = linkAbort(request.signal);
    let settled = false;
    request.client
      .callTool(
        { name: request.name, arguments: request.args },
        {
          signal: link.signal,
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
    return () => link.release(!settled);
  });
}
