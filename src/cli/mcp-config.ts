import { readFile } from 'node:fs/promises';
import {
  type ConnectMcpOptions,
  connectMcp,
  type McpClient,
  type McpConfig,
  parseMcpConfig,
} from '../mcp/index.ts';
import { type AnyTool, defineTool, type JsonSchemaObject } from '../tools/index.ts';
import { CliError } from './cli-error.ts';

/** The MCP servers of a config file, connected. */
export interface McpServers {
  /** Their tools, named `<server>__<tool>`; every call asks for approval. */
  tools: AnyTool[];
  close(): Promise<void>;
}

/**
 * Reads `{"mcpServers": {"name": {command, args, env} | {url, headers}}}` (the common shape of
 * Claude Desktop, Cursor and VS Code) and connects every server; `defaults` apply to each server
 * whose entry does not set them (`--mcp-negotiation`).
 * @throws CliError for an unreadable or malformed file, or a server that cannot be reached
 */
export async function connectMcpConfig(
  file: string,
  defaults: { versionNegotiation?: 'auto' | 'legacy' } = {},
): Promise<McpServers> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new CliError(
      // JSON.parse quotes the text it failed on, newlines included: the message stays on one line.
      `cannot read MCP config ${file}: ${(error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')}`,
    );
  }
  const servers: unknown =
    typeof json === 'object' && json !== null ? Reflect.get(json, 'mcpServers') : undefined;
  if (typeof servers !== 'object' || servers === null) {
    throw new CliError(`MCP config ${file} has no "mcpServers" object`);
  }
  const options = serversOf(file, json);
  const clients: McpClient[] = [];
  const close = () => Promise.all(clients.map((client) => client.close())).then(() => undefined);
  try {
    for (const server of options) {
      const client = await connectMcp({ ...defaults, ...server }).catch((error: unknown) => {
        throw new CliError(
          `MCP server "${server.name}" is unreachable: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      clients.push(client);
      await client.listTools();
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    tools: clients.flatMap((client) => client.tools({ prefix: `${client.name}__` }).map(askFirst)),
    close,
  };
}

/** Every server of the file as `connectMcp` options, checked by the hub's own parser. */
function serversOf(file: string, json: unknown): ConnectMcpOptions[] {
  try {
    return parseMcpConfig(json as McpConfig);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`MCP config ${file}: ${reason.replace(/^Invalid MCP configuration: /, '')}`);
  }
}

/** The same tool, asking the person at the terminal before each call. */
function askFirst(tool: AnyTool): AnyTool {
  return defineTool({
    name: tool.name,
    description: tool.description,
    input: tool.parameters as JsonSchemaObject,
    origin: tool.origin,
    needsApproval: true,
    execute: (args, context) => tool.execute(args as never, context),
  });
}
