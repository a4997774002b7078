import type {
  AuthProvider,
  Client,
  ClientCapabilities,
  FetchLike,
  OAuthClientProvider,
} from '@modelcontextprotocol/client';
import type { ChatModel } from '../core/index.ts';
import type { McpElicitationApprover } from './elicitation-approval.ts';
import type { McpOAuthOptions } from './oauth-fetch.ts';

/**
 * Receives what an MCP connection has to say besides protocol: server stderr (debug), restarts and
 * errors (warn). Pino-compatible, like the agent's logger: `(fields, message)`.
 */
export interface McpLogger {
  debug?(fields: object, message?: string): void;
  warn?(fields: object, message?: string): void;
}

/** How a crashed stdio server is restarted. */
export interface McpRestartOptions {
  /**
   * Crashes without a successful call in between before giving up; each crash is followed by up to
   * this many start attempts, with backoff. @default 5
   */
  maxRestarts?: number;
  /** The first wait; doubled each time. @default 200 */
  initialDelayMs?: number;
  /** @default 10_000 */
  maxDelayMs?: number;
}

/** Options every connection takes. */
export interface McpCommonOptions {
  /** The server's name: used in errors, logs, and as the tool prefix in a hub. */
  name: string;
  /** How this client introduces itself. @default { name: 'rxagent', version: '0.1.0' } */
  clientInfo?: { name: string; version: string };
  /**
   * `auto` asks the server with `server/discover` first and speaks 2026-07-28 to servers that offer
   * it, 2025-era `initialize` to the others (a stdio server that ignores the probe gets 3 s, one that
   * exits on it is started again and sent `initialize` first); `legacy` always uses the 2025
   * `initialize` handshake. @default 'auto'
   */
  versionNegotiation?: 'auto' | 'legacy';
  /** Time a call may wait with no progress. @default 60_000 */
  timeoutMs?: number;
  /** Time connecting (start, negotiation, handshake) may take. @default timeoutMs, then 60_000 */
  connectTimeoutMs?: number;
  /** Time a call may take however much progress it reports. @default 600_000 */
  maxTimeoutMs?: number;
  logger?: McpLogger;
  /** What this client offers the server (elicitation, sampling, roots). @default {} */
  capabilities?: ClientCapabilities;
  /**
   * Answers the server's `sampling/createMessage` with this model (opt-in: the server may then
   * spend the host's model, so name one meant for it). Adds the `sampling` capability.
   */
  sampling?: ChatModel;
  /**
   * Answers the server's yes/no elicitations (`elicitation/create` forms of booleans) through the
   * host's approval channel (opt-in); a form asking for more is declined. Adds the `elicitation`
   * capability.
   */
  elicitation?: McpElicitationApprover;
  /**
   * Sets up the SDK's `Client` before each (re)connection: request handlers for the capabilities
   * offered (`elicitation/create`, `sampling/createMessage`, `roots/list`), notification handlers.
   */
  configure?: (client: Client) => void;
}

/** A server started as a child process, spoken to over stdin/stdout. */
export interface McpStdioOptions extends McpCommonOptions {
  command: string;
  args?: readonly string[];
  /** Variables the server is given, over the host's allowlisted ones (`PATH`, `HOME`, locale, …). */
  env?: Readonly<Record<string, string>>;
  /**
   * More of the host's environment: `true` for all of it (API keys and cloud credentials included),
   * or the names to pass. @default false
   */
  inheritEnv?: boolean | readonly string[];
  cwd?: string;
  /** Bytes of stderr kept (see `McpClient.stderr`). @default 65_536 */
  stderrBytes?: number;
  /**
   * Bytes one message from the server may take; past it the server is ended (and restarted by the
   * restart policy). @default 10_485_760 (10 MiB, as the SDK's own stdio transport)
   */
  maxMessageBytes?: number;
  /** Restart policy after a crash; `false` leaves a crashed server down. */
  restart?: McpRestartOptions | false;
}

/** A server reached over Streamable HTTP (falling back to the legacy HTTP+SSE transport). */
export interface McpHttpOptions extends McpCommonOptions {
  url: string | URL;
  /**
   * Bytes one message from the server may take (a JSON body, or one SSE event); past it the
   * message is dropped and the request fails with `McpError` `disconnected`. @default 10_485_760
   */
  maxMessageBytes?: number;
  headers?: Readonly<Record<string, string>>;
  /** OAuth (or another scheme) for the SDK's transport, with no interactive login (see `oauth`). */
  authProvider?: AuthProvider | OAuthClientProvider;
  /**
   * An interactive OAuth login: on a 401 (or a 403 asking for more scope) the library discovers the
   * authorization server, registers, sends the user to it (`provider.redirectToAuthorization`),
   * waits for `authorizationCode()`, exchanges the code and retries the request.
   */
  oauth?: McpOAuthOptions;
  fetch?: FetchLike;
  /** `auto` tries Streamable HTTP, then legacy SSE. @default 'auto' */
  transport?: 'auto' | 'streamable-http' | 'sse';
}

/** What `connectMcp` takes: a stdio or an HTTP server. */
export type ConnectMcpOptions = McpStdioOptions | McpHttpOptions;

/** Whether the options describe a stdio server. */
export function isStdioOptions(options: ConnectMcpOptions): options is McpStdioOptions {
  return 'command' in options;
}
