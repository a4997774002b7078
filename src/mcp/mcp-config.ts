import { InvalidRequestError } from '../core/index.ts';
import type { ConnectMcpOptions } from './connect-options.ts';

/** One server of the common `{"mcpServers": {...}}` configuration file. */
export type McpServerConfig = (
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; headers?: Record<string, string> }
) & {
  /** How the version is negotiated with this server (see `connectMcp`). @default 'auto' */
  versionNegotiation?: 'auto' | 'legacy';
};

/** The configuration file shape shared by Claude Desktop, Cursor and others. */
export interface McpConfig {
  mcpServers: Record<string, McpServerConfig>;
}

const SERVER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,31}$/;

function stringRecord(value: unknown, where: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad(`${where} must be an object`);
  for (const [key, item] of Object.entries(value))
    if (typeof item !== 'string') throw bad(`${where}.${key} must be a string`);
  return value as Record<string, string>;
}

function negotiation(value: unknown, where: string): { versionNegotiation?: 'auto' | 'legacy' } {
  if (value === undefined) return {};
  if (value !== 'auto' && value !== 'legacy') throw bad(`${where} must be "auto" or "legacy"`);
  return { versionNegotiation: value };
}

function bad(message: string): InvalidRequestError {
  return new InvalidRequestError(`Invalid MCP configuration: ${message}`);
}

/**
 * Reads `{"mcpServers": {"name": {"command", "args", "env"} | {"url", "headers"}}}` (an object or
 * its JSON text) into `connectMcp` options, one per server. Throws `InvalidRequestError` naming the
 * first problem.
 */
export function parseMcpConfig(config: McpConfig | string): ConnectMcpOptions[] {
  let value: unknown = config;
  if (typeof config === 'string') {
    try {
      value = JSON.parse(config);
    } catch (cause) {
      throw new InvalidRequestError('Invalid MCP configuration: not JSON', { cause });
    }
  }
  const servers: unknown =
    typeof value === 'object' && value !== null ? Reflect.get(value, 'mcpServers') : undefined;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw bad('mcpServers must be an object');
  return Object.entries(servers).map(([name, entry]: [string, unknown]): ConnectMcpOptions => {
    if (!SERVER_NAME.test(name))
      throw bad(`server name ${JSON.stringify(name)} must match ${SERVER_NAME.source}`);
    if (typeof entry !== 'object' || entry === null) throw bad(`mcpServers.${name} must be an object`);
    const { command, args, env, cwd, url, headers, versionNegotiation } = entry as Record<string, unknown>;
    const common = { name, ...negotiation(versionNegotiation, `mcpServers.${name}.versionNegotiation`) };
    if (typeof url === 'string') {
      const parsedHeaders = stringRecord(headers, `mcpServers.${name}.headers`);
      return { ...common, url, ...(parsedHeaders ? { headers: parsedHeaders } : {}) };
    }
    if (typeof command !== 'string') throw bad(`mcpServers.${name} needs a command or a url`);
    if (args !== undefined && (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string'))) {
      throw bad(`mcpServers.${name}.args must be an array of strings`);
    }
    const parsedEnv = stringRecord(env, `mcpServers.${name}.env`);
    return {
      ...common,
      command,
      ...(args ? { args: args as string[] } : {}),
      ...(parsedEnv ? { env: parsedEnv } : {}),
      ...(typeof cwd === 'string' ? { cwd } : {}),
    };
  });
}
