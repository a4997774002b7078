import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { McpError, type McpErrorReason } from '../core/index.ts';

/**
 * Maps what the SDK throws to a typed `McpError`: a JSON-RPC error is `protocol` (with its code), a
 * request timeout `timeout`, a closed connection `disconnected`; anything else gets `fallback`.
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
    if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected) {
      return make('disconnected');
    }
  }
  return make(fallback);
}

/** Whether the server no longer knows the session (HTTP 404): re-initialize and try again. */
export function isSessionExpired(error: unknown): boolean {
  const cause = McpError.is(error) ? error.cause : error;
  return cause instanceof SdkHttpError && cause.status === 404;
}
