import { readFile } from 'node:fs/promises';
import { type ConnectMcpOptions, connectMcp, type McpClient } from '../mcp/index.ts';
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
 * Claude Desktop, Cursor and VS Code) and connects every server.
 * @throws CliError for an unreadable or malformed file, or a server that cannot be reached
 */
export async function connectMcpConfig(file: string): Promise<McpServers> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new CliError(
      `cannot read MCP config ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const servers: unknown =
    typeof json === 'object' && json !== null ? Reflect.get(json, 'mcpServers') : undefined;
  if (typeof servers !== 'object' || servers === null) {
    throw new CliError(`MCP config ${file} has no "mcpServers" object`);
  }
  const clients: McpClient[] = [];
  const close = () => Promise.all(clients.map((client) => client.close())).then(() => undefined);
  try {
    for (const [name, entry] of Object.entries(servers)) {
      const client = await connectMcp(optionsOf(file, name, entry)).catch((error: unknown) => {
        throw new CliError(
          `MCP server "${name}" is unreachable: ${error instanceof Error ? error.message : String(error)}`,
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

function optionsOf(file: string, name: string, entry: unknown): ConnectMcpOptions {
  const field = (key: string): unknown =>
    typeof entry === 'object' && entry !== null ? Reflect.get(entry, key) : undefined;
  const strings = (value: unknown) =>
    typeof value === 'object' && value !== null ? (value as Record<string, string>) : undefined;
  const command = field('command');
  const url = field('url');
  if (typeof command === 'string') {
    const args = field('args');
    const env = strings(field('env'));
    return {
      name,
      command,
      ...(Array.isArray(args) ? { args: args.map(String) } : {}),
      ...(env ? { env } : {}),
    };
  }
  if (typeof url === 'string') {
    const headers = strings(field('headers'));
    return { name, url, ...(headers ? { headers } : {}) };
  }
  throw new CliError(`MCP config ${file}: server "${name}" needs a "command" or a "url"`);
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
