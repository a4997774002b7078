import type {
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Implementation,
  LoggingLevel,
  LoggingMessageNotification,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
} from '@modelcontextprotocol/client';
import {
  Subject,
  BehaviorSubject,
  catchError,
  from,
  type Observable,
  concatMap,
  filter,
  throwError,
} from 'rxjs';
import type { AnyTool } from '../tools/index.ts';
import { callToolEvents, type McpCallOptions } from './call-tool.ts';
import type { ConnectMcpOptions } from './connect-options.ts';
import { mcpToolAdapters } from './mcp-tool-adapter.ts';
import type { McpToolEvent, McpToolInfo } from './mcp-tool-event.ts';
import { StdioProcessTransport } from './stdio-process-transport.ts';
import { type McpClientStatus, SupervisedConnection } from './supervised-connection.ts';
import { isSessionExpired, toMcpError } from './to-mcp-error.ts';

export type { McpClientStatus } from './supervised-connection.ts';

/**
 * A connection to one MCP server, made by `connectMcp`: tools (listed, live, callable as Observables,
 * or adapted for a `ToolRegistry`), resources and prompts. A crashed stdio server is restarted; an
 * HTTP session the server forgot (404, or a 400 naming the session) is re-initialized once and the
 * call retried (see `SupervisedConnection`).
 */
export class McpClient {
  readonly name: string;
  readonly #options: ConnectMcpOptions;
  readonly #tools$ = new BehaviorSubject<McpToolInfo[] | undefined>(undefined);
  readonly #connection: SupervisedConnection;
  readonly #resourceUpdated$ = new Subject<string>();
  readonly #logs$ = new Subject<LoggingMessageNotification['params']>();

  private constructor(options: ConnectMcpOptions) {
    this.name = options.name;
    this.#options = options;
    this.#connection = new SupervisedConnection(options, {
      onToolsChanged: () => this.#onToolsChanged(),
      onRestarted: () => void this.listTools({ refresh: true }).catch(() => undefined),
      onResourceUpdated: (uri) => this.#resourceUpdated$.next(uri),
      onLog: (message) => this.#logs$.next(message),
    });
  }

  /** Connects (see `connectMcp`). Rejects with `McpError` (`connect_failed`). */
  static async connect(options: ConnectMcpOptions): Promise<McpClient> {
    const client = new McpClient(options);
    const connection = await client.#connection.start();
    // Listed once up front so `tools()` can answer at once; a server without tools has none.
    try {
      if (connection.client.getServerCapabilities()?.tools) await client.listTools();
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
    return this.#connection.status$;
  }

  get status(): McpClientStatus {
    return this.#connection.status;
  }

  /** The server's name and version, as it reported them. */
  get serverInfo(): Implementation | undefined {
    return this.#connection.current?.client.getServerVersion();
  }

  /** `2026-07-28` or `2025-11-25` (or older), once connected. */
  get protocolVersion(): string | undefined {
    return this.#connection.current?.client.getNegotiatedProtocolVersion();
  }

  /** The newest bytes a stdio server wrote to stderr (empty over HTTP). */
  get stderr(): string {
    const transport = this.#connection.current?.transport;
    return transport instanceof StdioProcessTransport ? transport.stderrText : '';
  }

  /** The pid of a stdio server's process, while it runs. */
  get pid(): number | undefined {
    const transport = this.#connection.current?.transport;
    return transport instanceof StdioProcessTransport ? transport.pid : undefined;
  }

  /**
   * Every tool (all pages), cached; `refresh` asks the server again.
   * Rejects with `McpError` when the server cannot be asked.
   */
  async listTools(options: { refresh?: boolean } = {}): Promise<McpToolInfo[]> {
    const cached = this.#tools$.value;
    if (cached && !options.refresh) return cached;
    // A server without tools has none (and the SDK would print so on stdout, breaking a stdio host).
    const { tools } = this.#offers('tools')
      ? await this.#connection.request((client) => client.listTools(undefined, { cacheMode: 'refresh' }))
      : { tools: [] };
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
    // The live client is read when the call starts (an `unavailable` error when there is none).
    const once = callToolEvents({
      server: this.name,
      client: () => this.#connection.live().client,
      name,
      args,
      timeoutMs: options.timeoutMs ?? this.#options.timeoutMs ?? 60_000,
      maxTimeoutMs: options.maxTimeoutMs ?? this.#options.maxTimeoutMs ?? 600_000,
      signal: options.signal,
      onResult: () => this.#connection.succeeded(),
    });
    return once.pipe(
      catchError((error: unknown) =>
        isSessionExpired(error)
          ? from(this.#connection.reconnect()).pipe(concatMap(() => once))
          : throwError(() => error),
      ),
    );
  }

  /**
   * The server's tools (the current list) as `Tool`s for a `ToolRegistry` (origin `mcp`), named
   * `prefix + name`. Tools whose schema cannot be made strict are left out (and logged).
   */
  tools(options: { prefix?: string } = {}): AnyTool[] {
    return mcpToolAdapters(this, this.#tools$.value ?? [], options.prefix ?? '', this.#options.logger);
  }

  /** Every resource (all pages); none when the server does not offer resources. */
  async listResources(): Promise<Resource[]> {
    if (!this.#offers('resources')) return [];
    return (await this.#connection.request((client) => client.listResources())).resources;
  }

  readResource(uri: string): Promise<ReadResourceResult> {
    return this.#connection.request((client) => client.readResource({ uri }));
  }

  /** Every prompt (all pages); none when the server does not offer prompts. */
  async listPrompts(): Promise<Prompt[]> {
    if (!this.#offers('prompts')) return [];
    return (await this.#connection.request((client) => client.listPrompts())).prompts;
  }

  getPrompt(name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return this.#connection.request((client) => client.getPrompt({ name, arguments: args }));
  }

  /** Every resource template (all pages); none when the server does not offer resources. */
  async listResourceTemplates(): Promise<ResourceTemplateType[]> {
    if (!this.#offers('resources')) return [];
    return (await this.#connection.request((client) => client.listResourceTemplates())).resourceTemplates;
  }

  /** Asks for `resources/updated` notifications about `uri` (see `resourceUpdated$`). */
  async subscribeResource(uri: string): Promise<void> {
    await this.#connection.request((client) => client.subscribeResource({ uri }));
  }

  async unsubscribeResource(uri: string): Promise<void> {
    await this.#connection.request((client) => client.unsubscribeResource({ uri }));
  }

  /** The URIs of subscribed resources as the server says they changed. */
  get resourceUpdated$(): Observable<string> {
    return this.#resourceUpdated$.asObservable();
  }

  /** Completion values for a prompt or resource-template argument. */
  complete(params: CompleteRequest['params']): Promise<CompleteResult['completion']> {
    return this.#connection.request((client) => client.complete(params)).then((result) => result.completion);
  }

  /** The least severe level of log message the server should send (see `logs$`). */
  async setLoggingLevel(level: LoggingLevel): Promise<void> {
    await this.#connection.request((client) => client.setLoggingLevel(level));
  }

  /** Log messages the server sends (`notifications/message`). */
  get logs$(): Observable<LoggingMessageNotification['params']> {
    return this.#logs$.asObservable();
  }

  /** Whether the server answers at all; rejects with `McpError` when it does not. */
  async ping(): Promise<void> {
    await this.#connection.request((client) => client.ping());
  }

  /** Ends the session and, for stdio, the server's whole process group. */
  async close(): Promise<void> {
    await this.#connection.close();
    this.#tools$.complete();
    this.#resourceUpdated$.complete();
    this.#logs$.complete();
  }

  /**
   * Whether the server advertised a capability. The SDK answers a list call for one it did not with
   * an empty list and a `console.debug` line, which lands on stdout: asked here first instead.
   */
  #offers(capability: 'tools' | 'resources' | 'prompts'): boolean {
    const capabilities = this.#connection.current?.client.getServerCapabilities();
    return capabilities === undefined || capabilities[capability] !== undefined;
  }

  #onToolsChanged(): void {
    if (this.#tools$.value === undefined) return;
    this.listTools({ refresh: true }).catch((error: unknown) =>
      this.#options.logger?.warn?.({ server: this.name, error }, 'MCP tools refresh failed'),
    );
  }
}
