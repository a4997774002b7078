import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { McpError, type McpErrorReason } from '../core/index.ts';

/**
 * Maps what the SDK throws to a typed `McpError`: a JSON-RPC error is `protocol` (with its code), a
 * request timeout `timeout`, a result the SDK refuses `invalid_result`, a closed connection
 * `disconnected`; anything else gets `fallback`.
 */
export function toMcpError(server: string, error: unknown, fallback: McpErrorReason): McpError {
  if (McpError.is(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const make = (reason: McpErrorReason, rpcCode?: number) =>
    new McpError(`${server}: ${message}`, {
      server,
      reason,
      cause: error,
      ...(rpcCode !== undefined ? { rpcCode } : {}),
    });
  if (error instanceof ProtocolError) return make('protocol', error.code);
  if (error instanceof SdkError && !(error instanceof SdkHttpError)) {
    if (error.code === SdkErrorCode.RequestTimeout) return make('timeout');
    // The server answered, with what the protocol does not allow (an image whose data is not
    // base64, a result of no known type): not a connection that went away mid-call.
    if (error.code === SdkErrorCode.InvalidResult || error.code === SdkErrorCode.UnsupportedResultType) {
      return make('invalid_result');
    }
    if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected) {
      return make('disconnected');
    }
  }
  return make(fallback);
}

/** What a 400 for an unknown session says: "no valid session ID", "session not found", "invalid session". */
const SESSION_REFUSED =
  /session[\s_-]*id|session (?:not found|expired|unknown)|(?:unknown|invalid|expired) session/i;

/**
 * Whether the server no longer knows the session: re-initialize and try again. The spec
 * (2025-11-25, Streamable HTTP, Session Management) has a server answer an unknown or expired
 * `Mcp-Session-Id` with 404, and the client start a new session. Many deployed servers answer it
 * with 400 and a body naming the session instead (`@modelcontextprotocol/server-everything`:
 * "Bad Request: No valid session ID provided"; older Python SDKs likewise), so a 400 whose body
 * mentions a session id counts too. Neither answer means the request was processed, so one retry
 * on a fresh session is safe; any other 400 (a malformed request) is not retried.
 */
export function isSessionExpired(error: unknown): boolean {
  const cause = McpError.is(error) ? error.cause : error;
  if (!(cause instanceof SdkHttpError)) return false;
  if (cause.status === 404) return true;
  const body: unknown = Reflect.get(Object(cause.data), 'text');
  return cause.status === 400 && typeof body === 'string' && SESSION_REFUSED.test(body);
}
