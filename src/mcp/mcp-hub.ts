import type { GetPromptResult, Prompt, ReadResourceResult, Resource } from '@modelcontextprotocol/client';
import { map, skip, type Subscription } from 'rxjs';
import { InvalidRequestError, McpError } from '../core/index.ts';
import type { AnyTool } from '../tools/index.ts';
import type {
  ConnectMcpOptions,
  McpHttpOptions,
  McpLogger,
  McpRestartOptions,
  McpStdioOptions,
} from './connect-options.ts';
import { connectMcp } from './connect-mcp.ts';
import type { McpClient, McpClientStatus } from './mcp-client.ts';
import { type McpConfig, parseMcpConfig } from './mcp-config.ts';
import { mcpToolAdapters } from './mcp-tool-adapter.ts';
import type { McpToolInfo } from './mcp-tool-event.ts';
import { McpToolNameCollisionError } from './mcp-tool-name-collision-error.ts';
import { superviseRestart } from './supervise-restart.ts';

/** Options of `McpHub`. */
export interface McpHubOptions {
  /** Between the server name and the tool name. @default '__' */
  separator?: string;
  logger?: McpLogger;
  /**
   * How `fromConfig` keeps trying a server that was down at start-up.
   * @default { maxRestarts: Infinity, initialDelayMs: 1_000, maxDelayMs: 30_000 }
   */
  retry?: McpRestartOptions;
}

type ServerOptions = Omit<McpStdioOptions, 'name'> | Omit<McpHttpOptions, 'name'>;

/** A connected server, or one still being tried (`client` unset, `status` restarting or failed). */
interface Member {
  client?: McpClient;
  subscription?: Subscription;
  status?: McpClientStatus;
  stopRetry?: () => void;
}

/**
 * Several MCP servers behind one set of tools, named `server__tool`. An agent extension:
 * `agent.use(hub)` offers every server's current tools; a server that is down answers its calls
 * with an outcome the model reads ("temporarily unavailable"), never a throw, and the others go on.
 * Two servers whose tools would share a name are refused (`McpToolNameCollisionError`).
 * @example
 * const hub = await McpHub.fromConfig(await readFile('mcp.json', 'utf8'));
 * agent.use(hub);
 * await hub.close();
 */
export class McpHub {
  readonly name = 'mcp';
  readonly #members = new Map<string, Member>();
  /** Each server's adapters, rebuilt only when its list changes (the agent sees stable tool objects). */
  readonly #tools = new Map<string, AnyTool[]>();
  readonly #separator: string;
  readonly #logger: McpLogger | undefined;
  readonly #retry: McpRestartOptions;

  constructor(options: McpHubOptions = {}) {
    this.#separator = options.separator ?? '__';
    this.#logger = options.logger;
    this.#retry = { maxRestarts: Infinity, initialDelayMs: 1_000, maxDelayMs: 30_000, ...options.retry };
  }

  /**
   * A hub connected to every server of a `{"mcpServers": {...}}` configuration (object or JSON).
   * A server that cannot be reached yet is listed (`restarting`) and tried again with backoff.
   */
  static async fromConfig(config: McpConfig | string, options: McpHubOptions = {}): Promise<McpHub> {
    const hub = new McpHub(options);
    await Promise.all(
      parseMcpConfig(config).map(({ name, ...server }) =>
        hub.connect(name, server).catch((error: unknown) => {
          if (McpToolNameCollisionError.is(error)) throw error;
          options.logger?.warn?.({ server: name, error }, 'MCP server not connected; retrying');
          hub.#retryLater(name, server);
        }),
      ),
    );
    return hub;
  }

  /** Connects a server under `name` (its tools become `name__tool`). Rejects with `McpError`. */
  async connect(name: string, options: ServerOptions): Promise<McpClient> {
    if (this.#members.has(name))
      throw new InvalidRequestError(`An MCP server named ${name} is already connected`);
    const client = await this.#open(name, options);
    try {
      this.#install(name, client, await client.listTools());
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  /** Every connected server's tools (a down server's too: its calls answer "temporarily unavailable"). */
  tools(): AnyTool[] {
    return [...this.#tools.values()].flat();
  }

  client(name: string): McpClient | undefined {
    return this.#members.get(name)?.client;
  }

  /** Server names and their status (one down since start-up is `restarting`, then `failed`). */
  servers(): { name: string; status: McpClientStatus }[] {
    return [...this.#members].map(([name, member]) => ({
      name,
      status: member.client?.status ?? member.status ?? 'failed',
    }));
  }

  /** Closes one server (or stops trying it) and drops its tools; resolves whether it was known. */
  async disconnect(name: string): Promise<boolean> {
    const member = this.#members.get(name);
    if (!member) return false;
    this.#members.delete(name);
    this.#tools.delete(name);
    member.stopRetry?.();
    member.subscription?.unsubscribe();
    await member.client?.close();
    return true;
  }

  /** Closes every server. */
  async close(): Promise<void> {
    await Promise.all([...this.#members.keys()].map((name) => this.disconnect(name)));
  }

  /** Resources of every server that offers them (a failing server is skipped and logged). */
  async listResources(): Promise<{ server: string; resource: Resource }[]> {
    const lists = await this.#each((client) => client.listResources());
    return lists.flatMap(({ server, value }) => value.map((resource) => ({ server, resource })));
  }

  readResource(server: string, uri: string): Promise<ReadResourceResult> {
    return this.#require(server).readResource(uri);
  }

  /** Prompts of every server that offers them (a failing server is skipped and logged). */
  async listPrompts(): Promise<{ server: string; prompt: Prompt }[]> {
    const lists = await this.#each((client) => client.listPrompts());
    return lists.flatMap(({ server, value }) => value.map((prompt) => ({ server, prompt })));
  }

  getPrompt(server: string, name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return this.#require(server).getPrompt(name, args);
  }

  #open(name: string, options: ServerOptions): Promise<McpClient> {
    const logger = this.#logger ? { logger: this.#logger } : {};
    return connectMcp({ ...logger, ...options, name } as ConnectMcpOptions);
  }

  /**
   * Makes `client` the member `name` and follows its tool list. A name another server already
   * offers refuses the server (its first list, `initial`) or, on a later change, is left out with a
   * warning.
   */
  #install(name: string, client: McpClient, initial: readonly McpToolInfo[]): void {
    const adapt = (tools: readonly McpToolInfo[], strict: boolean) =>
      mcpToolAdapters(client, tools, `${name}${this.#separator}`, this.#logger).filter((tool) => {
        const owner = [...this.#tools].find(
          ([other, list]) => other !== name && list.some((each) => each.name === tool.name),
        );
        if (!owner) return true;
        const error = new McpToolNameCollisionError(tool.name, [owner[0], name]);
        if (strict) throw error;
        this.#logger?.warn?.({ server: name, tool: tool.name, error }, error.message);
        return false;
      });
    this.#tools.set(name, adapt(initial, true));
    const subscription = client.tools$
      .pipe(
        skip(1),
        map((tools) => adapt(tools, false)),
      )
      .subscribe((tools) => this.#tools.set(name, tools));
    this.#members.set(name, { client, subscription });
  }

  /** Tries a server that was down at start-up again, with backoff, until it comes up or is dropped. */
  #retryLater(name: string, options: ServerOptions): void {
    const member: Member = { status: 'restarting' };
    this.#members.set(name, member);
    const stop = superviseRestart(
      this.#retry,
      () =>
        this.#open(name, options).then(async (client) => {
          // Dropped (disconnect, close) while this attempt was connecting: nobody wants it.
          if (this.#members.get(name) !== member) {
            await client.close();
            throw new McpError(`${name}: no longer wanted`, { server: name, reason: 'unavailable' });
          }
          return client;
        }),
      {
        restarted: (client) => {
          if (this.#members.get(name) !== member) return void client.close();
          client.listTools().then(
            (tools) => this.#install(name, client, tools),
            (error: unknown) => {
              member.status = 'failed';
              this.#logger?.warn?.({ server: name, error }, 'MCP server refused');
              void client.close();
            },
          );
        },
        gaveUp: (error) => {
          member.status = 'failed';
          this.#logger?.warn?.({ server: name, error }, 'MCP server stayed down');
        },
      },
    );
    member.stopRetry = stop;
  }

  #require(server: string): McpClient {
    const client = this.client(server);
    if (!client) throw new McpError(`No MCP server named ${server}`, { server, reason: 'unavailable' });
    return client;
  }

  async #each<T>(ask: (client: McpClient) => Promise<T>): Promise<{ server: string; value: T }[]> {
    const settled = await Promise.all(
      [...this.#members].map(async ([server, { client }]) => {
        if (!client) return [];
        try {
          return [{ server, value: await ask(client) }];
        } catch (error) {
          this.#logger?.warn?.({ server, error }, 'MCP server skipped');
          return [];
        }
      }),
    );
    return settled.flat();
  }
}
