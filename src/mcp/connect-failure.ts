import { McpError } from '../core/index.ts';

/** What a stdio server left behind when it died during connect. */
export interface ProcessTrace {
  /** Its exit code, or the signal that ended it, when it exited on its own. */
  readonly exit: string | undefined;
  /** The newest bytes it wrote to stderr. */
  readonly stderrText: string;
}

/** The last lines of a server's stderr, on one line: the reason it gave, without the noise before. */
export function stderrTail(text: string, lines = 5, chars = 1_000): string {
  const kept = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .slice(-lines)
    .join(' | ');
  return kept.length > chars ? `…${kept.slice(-chars)}` : kept;
}

/**
 * Any failure to connect as an `McpError` with reason `connect_failed` (whatever the SDK called
 * it: a closed connection, a failed probe, a timeout), its message ending with what the server
 * process said before it died: its exit code and the tail of its stderr.
 */
export function connectFailure(server: string, error: unknown, trace?: ProcessTrace): McpError {
  const base = McpError.is(error)
    ? error.message
    : `${server}: ${error instanceof Error ? error.message : String(error)}`;
  const details = [
    ...(trace?.exit ? [trace.exit] : []),
    ...(trace && stderrTail(trace.stderrText) ? [`stderr: ${stderrTail(trace.stderrText)}`] : []),
  ];
  const message = details.length > 0 ? `${base} (${details.join('; ')})` : base;
  const rpcCode = McpError.is(error) ? error.rpcCode : undefined;
  return new McpError(message, {
    server,
    reason: 'connect_failed',
    cause: McpError.is(error) && error.reason === 'connect_failed' ? (error.cause ?? error) : error,
    ...(rpcCode !== undefined ? { rpcCode } : {}),
  });
}
