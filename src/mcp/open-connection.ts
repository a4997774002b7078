import {
  Client,
  type ClientOptions,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { type ConnectMcpOptions, isStdioOptions, type McpHttpOptions } from './connect-options.ts';
import { StdioProcessTransport } from './stdio-process-transport.ts';
import { toMcpError } from './to-mcp-error.ts';

/** One live session with a server: the SDK's client and the transport it runs on. */
export interface McpConnection {
  readonly client: Client;
  readonly transport: Transport;
}

/** Hooks of a connection: the list changed, or the connection ended. */
export interface ConnectionHooks {
  onToolsChanged: () => void;
  onClosed: () => void;
}

function newClient(options: ConnectMcpOptions, hooks: ConnectionHooks): Client {
  const clientOptions: ClientOptions = {
    versionNegotiation: { mode: options.versionNegotiation ?? 'auto' },
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    // The list is fetched by McpClient itself (all pages, one cache), so the SDK only signals.
    listChanged: { tools: { autoRefresh: false, onChanged: () => hooks.onToolsChanged() } },
  };
  const client = new Client(options.clientInfo ?? { name: 'rxagent', version: '0.1.0' }, clientOptions);
  options.configure?.(client);
  client.onclose = () => hooks.onClosed();
  client.onerror = (error) => options.logger?.warn?.({ server: options.name, error }, error.message);
  return client;
}

function httpTransport(options: McpHttpOptions, kind: 'streamable-http' | 'sse'): Transport {
  const url = new URL(options.url);
  const common = {
    ...(options.headers ? { requestInit: { headers: { ...options.headers } } } : {}),
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  return kind === 'sse'
    ? new SSEClientTransport(url, common as ConstructorParameters<typeof SSEClientTransport>[1])
    : new StreamableHTTPClientTransport(url, common);
}

async function attempt(options: ConnectMcpOptions, hooks: ConnectionHooks, transport: Transport) {
  const client = newClient(options, hooks);
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw error;
  }
  return { client, transport };
}

/**
 * Starts (stdio) or reaches (HTTP) the server and completes the MCP handshake. Over HTTP, `auto`
 * tries Streamable HTTP and falls back to the legacy HTTP+SSE transport when that fails. Rejects
 * with `McpError` (`connect_failed`).
 */
export async function openConnection(
  options: ConnectMcpOptions,
  hooks: ConnectionHooks,
): Promise<McpConnection> {
  try {
    if (isStdioOptions(options)) {
      const { command, args, env, cwd, stderrBytes, logger, name } = options;
      const transport = new StdioProcessTransport(name, {
        command,
        ...(args ? { args } : {}),
        ...(env ? { env } : {}),
        ...(cwd ? { cwd } : {}),
        ...(stderrBytes !== undefined ? { stderrBytes } : {}),
        onStderr: (line) => logger?.debug?.({ server: name, stderr: line }, 'MCP server stderr'),
      });
      return await attempt(options, hooks, transport);
    }
    const kind = options.transport ?? 'auto';
    if (kind !== 'auto') return await attempt(options, hooks, httpTransport(options, kind));
    try {
      return await attempt(options, hooks, httpTransport(options, 'streamable-http'));
    } catch (error) {
      options.logger?.debug?.({ server: options.name, error }, 'Streamable HTTP failed; trying SSE');
      return await attempt(options, hooks, httpTransport(options, 'sse'));
    }
  } catch (error) {
    throw toMcpError(options.name, error, 'connect_failed');
  }
}
