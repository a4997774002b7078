import {
  ApiError,
  AuditLogError,
  McpError,
  NetworkError,
  ReplayExpiredError,
  RunCancelledError,
  RunLostError,
  RunNotFoundError,
  RxAgentError,
  SessionStoreError,
  StreamParseError,
  ToolCallParseError,
  ToolExecutionError,
} from '../core/index.ts';

/** What a browser may be told about an error. */
export interface PublicError {
  name: string;
  code: string;
  message: string;
  runId?: string;
  lastEventId?: string;
  reason?: string;
}

/**
 * An error as a browser may see it: its class name and code always; its message unless the error
 * carries text from elsewhere: a provider's answer (`ApiError`: it may hold a masked key, a
 * deployment name), a network error (URLs), a tool's, a store's, an audit log's or an MCP
 * server's failure, a model's malformed tool call or a stream that does not parse. Those get a
 * generic message for their code.
 * @example sseFrame(JSON.stringify(publicError(error)), { event: 'error' })
 */
export function publicError(error: unknown): PublicError {
  if (!RxAgentError.is(error)) return { name: 'Error', code: 'internal_error', message: 'The run failed' };
  const { name, code } = error;
  if (RunLostError.is(error))
    return { name, code, message: error.message, runId: error.runId, reason: error.reason };
  if (RunNotFoundError.is(error) || RunCancelledError.is(error))
    return {
      name,
      code,
      message: error.message,
      ...(error.runId === undefined ? {} : { runId: error.runId }),
    };
  if (ReplayExpiredError.is(error))
    return { name, code, message: error.message, runId: error.runId, lastEventId: error.lastEventId };
  const foreignText =
    ApiError.is(error) ||
    NetworkError.is(error) ||
    ToolExecutionError.is(error) ||
    SessionStoreError.is(error) ||
    AuditLogError.is(error) ||
    McpError.is(error) ||
    // A model's or a server's own text: a tool call's id and name, an event that is not JSON.
    ToolCallParseError.is(error) ||
    StreamParseError.is(error);
  return { name, code, message: foreignText ? `The run failed (${code})` : error.message };
}
