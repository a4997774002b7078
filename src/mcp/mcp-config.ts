import { InvalidRequestError } from '../core/index.ts';
import type { ConnectMcpOptions } from './connect-options.ts';
import { expandVariables } from './expand-variables.ts';
import { serverEntryOptions } from './mcp-config-options.ts';

/** One server of the common `{"mcpServers": {...}}` configuration file. */
export type McpServerConfig = (
  | { type?: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { type?: 'http' | 'streamable-http' | 'sse'; url: string; headers?: Record<string, string> }
) & {
  /** Left out when `true`. */
  disabled?: boolean;
  /** How the version is negotiated with this server (see `connectMcp`). @default 'auto' */
  versionNegotiation?: 'auto' | 'legacy';
  /** Time a call may wait with no progress, in ms (`timeoutMs` is read too). */
  timeout?: number;
  connectTimeoutMs?: number;
  /** More of the host's environment for a stdio server (see `connectMcp`). */
  inheritEnv?: boolean | string[];
};

/** The configuration file shape shared by Claude Desktop, Cursor and others. */
export interface McpConfig {
  mcpServers: Record<string, McpServerConfig>;
}

/** Options of `parseMcpConfig`. */
export interface ParseMcpConfigOptions {
  /** Where `${VAR}` values come from. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

const SERVER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,31}$/;

function bad(message: string): InvalidRequestError {
  return new InvalidRequestError(`Invalid MCP configuration: ${message}`);
}

/** Every string in the entry with `${VAR}` expanded; an unset variable names where it is. */
function expanded(value: unknown, where: string, env: ParseMcpConfigOptions['env'] & object): unknown {
  if (typeof value === 'string') {
    const result = expandVariables(value, env);
    if ('missing' in result) throw bad(`${where} uses \${${result.missing}}, which is not set`);
    return result.value;
  }
  if (Array.isArray(value)) return value.map((item, i) => expanded(item, `${where}[${i}]`, env));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expanded(item, `${where}.${key}`, env)]),
    );
  return value;
}

/** A JSON parse error on one line: `JSON.parse` may quote the input, newlines and all. */
function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}

/**
 * Reads `{"mcpServers": {"name": {"command", "args", "env"} | {"url", "headers"}}}` (an object or
 * its JSON text) into `connectMcp` options, one per server that is not `disabled`. Understands
 * `type` (`stdio`, `http`/`streamable-http`, `sse`), per-server `timeout`/`timeoutMs`,
 * `connectTimeoutMs`, `versionNegotiation`, `inheritEnv`, and `${VAR}` / `${VAR:-default}` in every
 * string. Throws `InvalidRequestError` naming the first problem, on one line.
 */
export function parseMcpConfig(
  config: McpConfig | string,
  options: ParseMcpConfigOptions = {},
): ConnectMcpOptions[] {
  let value: unknown = config;
  if (typeof config === 'string') {
    try {
      value = JSON.parse(config);
    } catch (cause) {
      throw new InvalidRequestError(`Invalid MCP configuration: not JSON (${oneLine(cause)})`, { cause });
    }
  }
  const servers: unknown =
    typeof value === 'object' && value !== null ? Reflect.get(value, 'mcpServers') : undefined;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw bad('mcpServers must be an object');
  const env = options.env ?? process.env;
  return Object.entries(servers).flatMap(([name, entry]: [string, unknown]): ConnectMcpOptions[] => {
    if (!SERVER_NAME.test(name))
      throw bad(`server name ${JSON.stringify(name)} must match ${SERVER_NAME.source}`);
    const where = `mcpServers.${name}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw bad(`${where} must be an object`);
    const { disabled } = entry as { disabled?: unknown };
    if (disabled !== undefined && typeof disabled !== 'boolean')
      throw bad(`${where}.disabled must be true or false`);
    if (disabled === true) return [];
    const fields = expanded(entry, where, env) as Record<string, unknown>;
    try {
      return [serverEntryOptions(name, fields)];
    } catch (error) {
      throw bad(`${where}${error instanceof Error ? error.message : String(error)}`);
    }
  });
}
