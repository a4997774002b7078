import type {
  GetPromptResult,
  Implementation,
  Prompt,
  ReadResourceResult,
  Resource,
} from '@modelcontextprotocol/client';
import {
  BehaviorSubject,
  catchError,
  defer,
  from,
  type Observable,
  concatMap,
  filter,
  tap,
  throwError,
} from 'rxjs';
import { McpError } from '../core/index.ts';
import type { AnyTool } from '../tools/index.ts';
import { callToolEvents, type McpCallOptions } from './call-tool.ts';
import { type ConnectMcpOptions, isStdioOptions } from './connect-options.ts';
import { mcpToolAdapters } from './mcp-tool-adapter.ts';
import type { McpToolEvent, McpToolInfo } from './mcp-tool-event.ts';
import { type McpConnection, openConnection } from './open-connection.ts';
import { StdioProcessTransport } from './stdio-process-transport.ts';
import { isSessionExpired, toMcpError } from './to-mcp-error.ts';
import { superviseRestart } from './supervise-restart.ts';

/** Where a client is: serving calls, restarting a crashed server, or down for good. */
export type McpClientStatus = 'connected' | 'restarting' | 'failed' | 'closed';

/**
 * A connection to one MCP server, made by `connectMcp`: tools (listed, live, callable as Observables,
 * or adapted for a `ToolRegistry`), resources and prompts. A crashed stdio server is restarted; an
 * HTTP session the server forgot (404) is re-initialized once and the call retried.
 */
export class McpClient {
  readonly name: string;
  readonly #options: ConnectMcpOptions;
  readonly #tools$ = new BehaviorSubject<McpToolInfo[] | undefined>(undefined);
  readonly #status$ = new BehaviorSubject<McpClientStatus>('connected');
  #connection: McpConnection | undefined;
  #reconnecting: Promise<McpConnection> | undefined;
  #stopRestart: (() => void) | undefined;
  /** Crashes since the last successful call: a server that keeps crashing is given up. */
  #crashes = 0;

  private constructor(options: ConnectMcpOptions) {
    this.name = options.name;
    this.#options = options;
  }

  /** Connects (see `connectMcp`). Rejects with `McpError` (`connect_failed`). */
  static async connect(options: ConnectMcpOptions): Promise<McpClient> {
    const client = new McpClient(options);
    client.#connection = await client.#open();
    // Listed once up front so `tools()` can answer at once; a server without tools has none.
    try {
      if (client.#connection.client.getServerCapabilities()?.tools) await client.listTools();
      else client.#tools$.next([]);
    } catch (error) {
      await client.close();
      throw toMcpError(options.name, error, 'connect_failed');
    }
    return client;
  }

  /** The current list of tools, replayed to each subscriber and updated when the server changes it. */
  get tools$(): Observable<McpToolInfo[]> {
    return this.#tools$.pipe(filter((tools): tools is McpToolInfo[] => tools !== undefined));
  }

  /** `connected`, `restarting`, `failed` or `closed`, live. */
  get status$(): Observable<McpClientStatus> {
    return this.#status$.asObservable();
  }

  get status(): McpClientStatus {
    return this.#status$.value;
  }

  /** The server's name and version, as it reported them. */
  get serverInfo(): Implementation | undefined {
    return this.#connection?.client.getServerVersion();
  }

  /** `2026-07-28` or `2025-11-25` (or older), once connected. */
  get protocolVersion(): string | undefined {
    return this.#connection?.client.getNegotiatedProtocolVersion();
  }

  /** The newest bytes a stdio server wrote to stderr (empty over HTTP). */
  get stderr(): string {
    const transport = this.#connection?.transport;
    return transport instanceof StdioProcessTransport ? transport.stderrText : '';
  }

  /** The pid of a stdio server's process, while it runs. */
  get pid(): number | undefined {
    const transport = this.#connection?.transport;
    return transport instanceof StdioProcessTransport ? transport.pid : undefined;
  }

  /**
   * Every tool (all pages), cached; `refresh` asks the server again.
   * Rejects with `McpError` when the server cannot be asked.
   */
  async listTools(options: { refresh?: boolean } = {}): Promise<McpToolInfo[]> {
    const cached = this.#tools$.value;
    if (cached && !options.refresh) return cached;
    const { tools } = await this.#request((client) => client.listTools(undefined, { cacheMode: 'refresh' }));
    this.#tools$.next(tools);
    return tools;
  }

  /**
   * Calls a tool: `progress` events, then one `result`. Cold; unsubscribing cancels the call.
   * Errors with `McpError` (`unavailable`, `disconnected`, `timeout`, `protocol`).
   * @example client.callTool('echo', { message: 'hi' }).subscribe((event) => console.log(event));
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions = {},
  ): Observable<McpToolEvent> {
    const once = () =>
      defer(() =>
        callToolEvents({
          server: this.name,
          client: this.#live().client,
          name,
          args,
          timeoutMs: options.timeoutMs ?? this.#options.timeoutMs ?? 60_000,
          maxTimeoutMs: options.maxTimeoutMs ?? this.#options.maxTimeoutMs ?? 600_000,
          signal: options.signal,
        }),
      );
    return once().pipe(
      catchError((error: unknown) =>
        isSessionExpired(error) ? from(this.#reconnect()).pipe(concatMap(once)) : throwError(() => error),
      ),
      tap({ complete: () => (this.#crashes = 0) }),
    );
  }

  /**
   * The server's tools (the current list) as `Tool`s for a `ToolRegistry` (origin `mcp`), named
   * `prefix + name`. Tools whose schema cannot be made strict are left out (and logged).
   */
  tools(options: { prefix?: string } = {}): AnyTool[] {
    return mcpToolAdapters(this, this.#tools$.value ?? [], options.prefix ?? '', this.#options.logger);
  }

  async listResources(): Promise<Resource[]> {
    return (await this.#request((client) => client.listResources())).resources;
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return this.#request((client) => client.readResource({ uri }));
  }

  async listPrompts(): Promise<Prompt[]> {
    return (await this.#request((client) => client.listPrompts())).prompts;
  }

  getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return this.#request((client) => client.getPrompt({ name, arguments: args }));
  }

  /** Ends the session and, for stdio, the server's whole process group. */
  async close(): Promise<void> {
    this.#status$.next('closed');
    this.#stopRestart?.();
    const connection = this.#connection;
    this.#connection = undefined;
    await connection?.client.close();
    this.#tools$.complete();
    this.#status$.complete();
  }

  #onConnectionClosed(connection: McpConnection): void {
    if (this.#connection !== connection || this.status === 'closed') return;
    this.#connection = undefined;
    const restart = isStdioOptions(this.#options) ? this.#options.restart : false;
    if (restart === false || ++this.#crashes > (restart?.maxRestarts ?? 5)) {
      this.#status$.next('failed');
      return;
    }
    this.#status$.next('restarting');
    this.#options.logger?.warn?.({ server: this.name }, 'MCP server exited; restarting');
    this.#stopRestart = superviseRestart(restart ?? {}, () => this.#open(), {
      restarted: (next) => {
        this.#connection = next;
        this.#status$.next('connected');
        this.listTools({ refresh: true }).catch(() => undefined);
      },
      gaveUp: (error) => {
        this.#status$.next('failed');
        this.#options.logger?.warn?.({ server: this.name, error }, 'MCP server restart failed');
      },
    });
  }

  #onToolsChanged(): void {
    if (this.#tools$.value === undefined) return;
    this.listTools({ refresh: true }).catch((error: unknown) =>
      this.#options.logger?.warn?.({ server: this.name, error }, 'MCP tools refresh failed'),
    );
  }

  #open(): Promise<McpConnection> {
    let connection: McpConnection | undefined;
    return openConnection(this.#options, {
      onToolsChanged: () => this.#onToolsChanged(),
      onClosed: () => connection && this.#onConnectionClosed(connection),
    }).then((opened) => (connection = opened));
  }

  #live(): McpConnection {
    if (this.#connection) return this.#connection;
    const why =
      this.status === 'restarting' ? 'is restarting' : this.status === 'closed' ? 'is closed' : 'is down';
    throw new McpError(`${this.name}: the server ${why}`, { server: this.name, reason: 'unavailable' });
  }

  /** Re-initializes an HTTP session the server no longer knows; concurrent callers share one attempt. */
  #reconnect(): Promise<McpConnection> {
    this.#reconnecting ??= (async () => {
      const stale = this.#connection;
      this.#connection = undefined;
      await stale?.transport.close().catch(() => undefined);
      const next = await this.#open();
      if (this.status === 'closed') {
        await next.client.close();
        throw new McpError(`${this.name}: the client is closed`, {
          server: this.name,
          reason: 'unavailable',
        });
      }
      this.#connection = next;
      return next;
    })().finally(() => (this.#reconnecting = undefined));
    return this.#reconnecting;
  }

  async #request<T>(send: (client: McpConnection['client']) => Promise<T>): Promise<T> {
    try {
      return await send(this.#live().client);
    } catch (error) {
      if (!isSessionExpired(error)) throw toMcpError(this.name, error, 'protocol');
      try {
        return await send((await this.#reconnect()).client);
      } catch (retryError) {
        throw toMcpError(this.name, retryError, 'protocol');
      }
    }
  }
}
