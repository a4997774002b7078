import type { GetPromptResult, Prompt, ReadResourceResult, Resource } from '@modelcontextprotocol/client';
import { map, type Subscription } from 'rxjs';
import { InvalidRequestError, McpError } from '../core/index.ts';
import type { AnyTool } from '../tools/index.ts';
import type { ConnectMcpOptions, McpHttpOptions, McpLogger, McpStdioOptions } from './connect-options.ts';
import { connectMcp } from './connect-mcp.ts';
import type { McpClient, McpClientStatus } from './mcp-client.ts';
import { type McpConfig, parseMcpConfig } from './mcp-config.ts';
import { mcpToolAdapters } from './mcp-tool-adapter.ts';

/** Options of `McpHub`. */
export interface McpHubOptions {
  /** Between the server name and the tool name. @default '__' */
  separator?: string;
  logger?: McpLogger;
}

interface Member {
  client: McpClient;
  subscription: Subscription;
}

/**
 * Several MCP servers behind one set of tools, named `server__tool`. An agent extension:
 * `agent.use(hub)` offers every server's current tools; a server that is down answers its calls
 * with an outcome the model reads ("temporarily unavailable"), never a throw, and the others go on.
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

  constructor(options: McpHubOptions = {}) {
    this.#separator = options.separator ?? '__';
    this.#logger = options.logger;
  }

  /**
   * A hub connected to every server of a `{"mcpServers": {...}}` configuration (object or JSON).
   * A server that cannot be reached is logged and left out; the others are connected.
   */
  static async fromConfig(config: McpConfig | string, options: McpHubOptions = {}): Promise<McpHub> {
    const hub = new McpHub(options);
    await Promise.all(
      parseMcpConfig(config).map((server) =>
        hub.connect(server.name, server).catch((error: unknown) => {
          options.logger?.warn?.({ server: server.name, error }, 'MCP server not connected');
        }),
      ),
    );
    return hub;
  }

  /** Connects a server under `name` (its tools become `name__tool`). Rejects with `McpError`. */
  async connect(
    name: string,
    options: Omit<McpStdioOptions, 'name'> | Omit<McpHttpOptions, 'name'>,
  ): Promise<McpClient> {
    if (this.#members.has(name))
      throw new InvalidRequestError(`An MCP server named ${name} is already connected`);
    const client = await connectMcp({
      ...(this.#logger ? { logger: this.#logger } : {}),
      ...options,
      name,
    } as ConnectMcpOptions);
    const subscription = client.tools$
      .pipe(map((tools) => mcpToolAdapters(client, tools, `${name}${this.#separator}`, this.#logger)))
      .subscribe((tools) => this.#tools.set(name, tools));
    this.#members.set(name, { client, subscription });
    return client;
  }

  /** Every connected server's tools (a down server's too: its calls answer "temporarily unavailable"). */
  tools(): AnyTool[] {
    return [...this.#tools.values()].flat();
  }

  client(name: string): McpClient | undefined {
    return this.#members.get(name)?.client;
  }

  /** Server names and their status. */
  servers(): { name: string; status: McpClientStatus }[] {
    return [...this.#members].map(([name, { client }]) => ({ name, status: client.status }));
  }

  /** Closes one server and drops its tools; resolves whether it was connected. */
  async disconnect(name: string): Promise<boolean> {
    const member = this.#members.get(name);
    if (!member) return false;
    this.#members.delete(name);
    this.#tools.delete(name);
    member.subscription.unsubscribe();
    await member.client.close();
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

  #require(server: string): McpClient {
    const client = this.client(server);
    if (!client) throw new McpError(`No MCP server named ${server}`, { server, reason: 'unavailable' });
    return client;
  }

  async #each<T>(ask: (client: McpClient) => Promise<T>): Promise<{ server: string; value: T }[]> {
    const settled = await Promise.all(
      [...this.#members].map(async ([server, { client }]) => {
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
