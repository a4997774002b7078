import { RxAgentError } from './rx-agent-error.ts';

/**
 * Why an MCP operation failed: `connect_failed` (the server could not be started or reached),
 * `disconnected` (the connection ended before an answer, e.g. the server process died mid-call),
 * `unavailable` (the server is down and being restarted, or was closed), `protocol` (the server
 * answered with a JSON-RPC error), `timeout`, `invalid_result` (structured content that does not
 * match the tool's output schema) and `unknown_tool`.
 */
export type McpErrorReason =
  | 'connect_failed'
  | 'disconnected'
  | 'unavailable'
  | 'protocol'
  | 'timeout'
  | 'invalid_result'
  | 'unknown_tool';

/** A failure talking to an MCP server; `server` names it, `reason` says what kind of failure. */
export class McpError extends RxAgentError {
  static override readonly kind: string = 'McpError';
  readonly server: string;
  readonly reason: McpErrorReason;
  /** The JSON-RPC error code, when the server sent one. */
  readonly rpcCode: number | undefined;

  constructor(
    message: string,
    data: { server: string; reason: McpErrorReason; rpcCode?: number; cause?: unknown },
  ) {
    super(message, `mcp_${data.reason}`, { cause: data.cause });
    this.server = data.server;
    this.reason = data.reason;
    this.rpcCode = data.rpcCode;
  }
}
