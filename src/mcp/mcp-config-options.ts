import type { ConnectMcpOptions } from './connect-options.ts';

/** A problem with one key; its text starts with the key's path below the server (`.args …`). */
class EntryProblem extends Error {}

function stringRecord(value: unknown, key: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new EntryProblem(`.${key} must be an object`);
  for (const [name, item] of Object.entries(value))
    if (typeof item !== 'string') throw new EntryProblem(`.${key}.${name} must be a string`);
  return value as Record<string, string>;
}

function milliseconds(value: unknown, key: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value > 0))
    throw new EntryProblem(`.${key} must be a positive number of ms`);
  return value;
}

/** The options every entry may carry, whatever its transport. */
function commonOptions(fields: Record<string, unknown>) {
  const { versionNegotiation, timeout, timeoutMs, connectTimeoutMs } = fields;
  if (versionNegotiation !== undefined && versionNegotiation !== 'auto' && versionNegotiation !== 'legacy')
    throw new EntryProblem('.versionNegotiation must be "auto" or "legacy"');
  const callMs = milliseconds(timeoutMs, 'timeoutMs') ?? milliseconds(timeout, 'timeout');
  const connectMs = milliseconds(connectTimeoutMs, 'connectTimeoutMs');
  return {
    ...(versionNegotiation !== undefined ? { versionNegotiation } : {}),
    ...(callMs !== undefined ? { timeoutMs: callMs } : {}),
    ...(connectMs !== undefined ? { connectTimeoutMs: connectMs } : {}),
  } as Pick<ConnectMcpOptions, 'versionNegotiation' | 'timeoutMs' | 'connectTimeoutMs'>;
}

const HTTP_TYPES: Readonly<Record<string, 'streamable-http' | 'sse'>> = {
  http: 'streamable-http',
  'streamable-http': 'streamable-http',
  streamableHttp: 'streamable-http',
  sse: 'sse',
};

/**
 * One `mcpServers` entry (variables already expanded) as `connectMcp` options. Throws an error
 * whose message is the key's path below the server and what is wrong with it.
 */
export function serverEntryOptions(name: string, fields: Record<string, unknown>): ConnectMcpOptions {
  const { type, command, args, env, cwd, url, headers, inheritEnv } = fields;
  if (type !== undefined && type !== 'stdio' && (typeof type !== 'string' || !HTTP_TYPES[type]))
    throw new EntryProblem('.type must be "stdio", "http", "streamable-http" or "sse"');
  const common = { name, ...commonOptions(fields) };
  if (type !== 'stdio' && typeof url === 'string') {
    const parsedHeaders = stringRecord(headers, 'headers');
    const transport = typeof type === 'string' ? HTTP_TYPES[type] : undefined;
    return {
      ...common,
      url,
      ...(parsedHeaders ? { headers: parsedHeaders } : {}),
      ...(transport ? { transport } : {}),
    };
  }
  if (typeof command !== 'string')
    throw new EntryProblem(` needs a command${type === 'stdio' ? '' : ' or a url'}`);
  if (args !== undefined && (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')))
    throw new EntryProblem('.args must be an array of strings');
  if (
    inheritEnv !== undefined &&
    typeof inheritEnv !== 'boolean' &&
    !(Array.isArray(inheritEnv) && inheritEnv.every((item) => typeof item === 'string'))
  )
    throw new EntryProblem('.inheritEnv must be true, false or an array of variable names');
  const parsedEnv = stringRecord(env, 'env');
  return {
    ...common,
    command,
    ...(args ? { args: args as string[] } : {}),
    ...(parsedEnv ? { env: parsedEnv } : {}),
    ...(typeof cwd === 'string' ? { cwd } : {}),
    ...(inheritEnv !== undefined ? { inheritEnv: inheritEnv as boolean | string[] } : {}),
  };
}
