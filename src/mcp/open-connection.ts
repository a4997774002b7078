import {
  Client,
  type ClientOptions,
  type ConnectOptions,
  type LoggingMessageNotification,
  SdkError,
  SdkErrorCode,
  type Transport,
} from '@modelcontextprotocol/client';
import { type ConnectMcpOptions, isStdioOptions, type McpStdioOptions } from './connect-options.ts';
import { connectFailure } from './connect-failure.ts';
import { httpStatusOf, httpTransport, isLegacySseAnswer } from './http-transport.ts';
import { answerElicitations } from './elicitation-approval.ts';
import { answerSampling } from './sampling-handler.ts';
import { StdioProcessTransport } from './stdio-process-transport.ts';

/** One live session with a server: the SDK's client and the transport it runs on. */
export interface McpConnection {
  readonly client: Client;
  readonly transport: Transport;
}

/** Hooks of a connection: the list changed, or the connection ended. */
export interface ConnectionHooks {
  onToolsChanged: () => void;
  onClosed: () => void;
  /** A subscribed resource changed (`notifications/resources/updated`). */
  onResourceUpdated?: (uri: string) => void;
  /** The server logged something (`notifications/message`), at the level set with `logging/setLevel`. */
  onLog?: (message: LoggingMessageNotification['params']) => void;
}

/** The longest a stdio server may take to answer (or ignore) `server/discover` before `initialize`. */
const STDIO_PROBE_MS = 3_000;

function newClient(options: ConnectMcpOptions, hooks: ConnectionHooks, probeMs: number): Client {
  const clientOptions: ClientOptions = {
    versionNegotiation: { mode: options.versionNegotiation ?? 'auto', probe: { timeoutMs: probeMs } },
    capabilities: {
      ...options.capabilities,
      ...(options.sampling ? { sampling: {} } : {}),
      ...(options.elicitation ? { elicitation: { form: {} } } : {}),
    },
    // The list is fetched by McpClient itself (all pages, one cache), so the SDK only signals.
    listChanged: { tools: { autoRefresh: false, onChanged: () => hooks.onToolsChanged() } },
  };
  const client = new Client(options.clientInfo ?? { name: 'rxagent', version: '0.1.0' }, clientOptions);
  client.setNotificationHandler('notifications/resources/updated', (notification) =>
    hooks.onResourceUpdated?.(notification.params.uri),
  );
  client.setNotificationHandler('notifications/message', (notification) =>
    hooks.onLog?.(notification.params),
  );
  if (options.sampling) answerSampling(client, options.sampling);
  if (options.elicitation) answerElicitations(client, options.name, options.elicitation);
  options.configure?.(client);
  client.onclose = () => hooks.onClosed();
  client.onerror = (error) => options.logger?.warn?.({ server: options.name, error }, error.message);
  return client;
}

/** Connects one client over one transport within `ms`; a failed attempt leaves nothing open. */
async function attempt(
  options: ConnectMcpOptions,
  hooks: ConnectionHooks,
  transport: Transport,
  ms: number,
  signal: AbortSignal | undefined,
  prior?: ConnectOptions['prior'],
): Promise<McpConnection> {
  // The probe gets part of the time, so that an `initialize` after it still fits in the bound.
  const probeMs = Math.max(1, Math.floor(Math.min(isStdioOptions(options) ? STDIO_PROBE_MS : ms, ms / 2)));
  const client = newClient(options, hooks, probeMs);
  const initializeMs = prior ? ms : Math.max(1, ms - probeMs);
  // Closing the transport is what makes a connect under way give up at once (a process being
  // started is ended, not left to finish its handshake for nobody).
  const abandon = () => void transport.close().catch(() => undefined);
  signal?.addEventListener('abort', abandon, { once: true });
  try {
    if (signal?.aborted) throw new Error('the connection was closed while connecting');
    await client.connect(transport, { timeout: initializeMs, ...(prior ? { prior } : {}) });
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw error;
  } finally {
    signal?.removeEventListener('abort', abandon);
  }
  return { client, transport };
}

/** Whether a negotiated connect failed in the probe itself (the server may still speak 2025's `initialize`). */
function probeFailed(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed;
}

function stdioTransport(options: McpStdioOptions): StdioProcessTransport {
  const { command, args, env, inheritEnv, cwd, stderrBytes, maxMessageBytes, logger, name } = options;
  return new StdioProcessTransport(name, {
    command,
    ...(args ? { args } : {}),
    ...(env ? { env } : {}),
    ...(inheritEnv !== undefined ? { inheritEnv } : {}),
    ...(cwd ? { cwd } : {}),
    ...(stderrBytes !== undefined ? { stderrBytes } : {}),
    ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
    onStderr: (line) => logger?.debug?.({ server: name, stderr: line }, 'MCP server stderr'),
  });
}

/**
 * A stdio server: negotiated in place (a 2025 server that ignores `server/discover` falls back to
 * `initialize` after a short probe), and when the probe ends the process (a server that exits on
 * any first request but `initialize`, as the Rust SDK's do), once more on a fresh process that is
 * sent `initialize` first.
 */
async function openStdio(
  options: McpStdioOptions,
  hooks: ConnectionHooks,
  deadline: number,
  signal: AbortSignal | undefined,
) {
  let transport = stdioTransport(options);
  try {
    return await attempt(options, hooks, transport, deadline - Date.now(), signal);
  } catch (error) {
    const retry = (options.versionNegotiation ?? 'auto') === 'auto' && probeFailed(error);
    if (!retry || Date.now() >= deadline || signal?.aborted === true)
      throw connectFailure(options.name, error, transport);
    options.logger?.debug?.(
      { server: options.name, error },
      'MCP negotiation probe failed; initialize first',
    );
  }
  transport = stdioTransport(options);
  try {
    return await attempt(options, hooks, transport, deadline - Date.now(), signal, { kind: 'legacy' });
  } catch (error) {
    throw connectFailure(options.name, error, transport);
  }
}

/**
 * An HTTP server: Streamable HTTP (once more with `initialize` first when the server answered the
 * negotiation probe with a 5xx, as 2025 servers that fail unknown methods do), and with `auto`
 * the legacy HTTP+SSE transport only when the first POST was answered 400, 404 or 405.
 */
async function openHttp(
  options: Exclude<ConnectMcpOptions, McpStdioOptions>,
  hooks: ConnectionHooks,
  deadline: number,
  signal: AbortSignal | undefined,
) {
  const kind = options.transport ?? 'auto';
  if (kind === 'sse')
    return attempt(options, hooks, httpTransport(options, 'sse'), deadline - Date.now(), signal);
  let streamable: unknown;
  try {
    return await attempt(
      options,
      hooks,
      httpTransport(options, 'streamable-http'),
      deadline - Date.now(),
      signal,
    );
  } catch (error) {
    streamable = error;
  }
  const status = httpStatusOf(streamable);
  if (
    (options.versionNegotiation ?? 'auto') === 'auto' &&
    probeFailed(streamable) &&
    status !== undefined &&
    status >= 500
  ) {
    const transport = httpTransport(options, 'streamable-http');
    return attempt(options, hooks, transport, deadline - Date.now(), signal, { kind: 'legacy' });
  }
  if (kind !== 'auto' || !isLegacySseAnswer(streamable)) throw streamable;
  options.logger?.debug?.({ server: options.name, error: streamable }, 'Streamable HTTP refused; trying SSE');
  try {
    return await attempt(options, hooks, httpTransport(options, 'sse'), deadline - Date.now(), signal);
  } catch (sse) {
    // The Streamable HTTP failure is the one to report; the fallback's comes second.
    const text = (error: unknown) => (error instanceof Error ? error.message : String(error));
    throw new AggregateError([streamable, sse], `${text(streamable)} (legacy SSE: ${text(sse)})`, {
      cause: sse,
    });
  }
}

/**
 * Starts (stdio) or reaches (HTTP) the server and completes the MCP handshake within
 * `connectTimeoutMs` (default `timeoutMs`, then 60 s). Rejects with `McpError` (`connect_failed`):
 * for a stdio server that died, the message ends with its exit code and the tail of its stderr.
 * Aborting `signal` gives up at once and leaves nothing running.
 */
export async function openConnection(
  options: ConnectMcpOptions,
  hooks: ConnectionHooks,
  signal?: AbortSignal,
): Promise<McpConnection> {
  const deadline = Date.now() + (options.connectTimeoutMs ?? options.timeoutMs ?? 60_000);
  if (isStdioOptions(options)) return openStdio(options, hooks, deadline, signal);
  try {
    return await openHttp(options, hooks, deadline, signal);
  } catch (error) {
    throw connectFailure(options.name, error);
  }
}
