import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMcp,
  type ConnectMcpOptions,
  type McpHttpOptions,
  type McpServerHandle,
  type McpStdioOptions,
  serveMcp,
} from '../../src/mcp/index.ts';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';
import { EVERYTHING_BIN, FILESYSTEM_BIN } from './reference-servers.ts';

const require = createRequire(import.meta.url);
const MEMORY_BIN = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const THINKING_BIN = require.resolve('@modelcontextprotocol/server-sequential-thinking/dist/index.js');
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** One row of the matrix: how to reach the server, and one call it must answer. */
interface Row {
  server: string;
  transport: 'stdio' | 'http';
  /** The protocol revision the default negotiation reaches. */
  protocol: string;
  options: () => Omit<McpStdioOptions, 'name'> | Omit<McpHttpOptions, 'name'>;
  call: { tool: string; args: Record<string, unknown>; text: RegExp };
}

let dir = '';
let everythingUrl = '';
let everythingHttp: ChildProcess | undefined;
let v2Http: McpServerHandle | undefined;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const node = (...args: string[]) => ({ command: process.execPath, args });
const echo = (text: RegExp) => ({ tool: 'echo', args: { message: 'matrix' }, text });

const ROWS: Row[] = [
  {
    server: 'server-everything',
    transport: 'stdio',
    protocol: '2025-11-25',
    options: () => node(EVERYTHING_BIN, 'stdio'),
    call: echo(/Echo: matrix/),
  },
  {
    server: 'server-everything',
    transport: 'http',
    protocol: '2025-11-25',
    options: () => ({ url: everythingUrl }),
    call: echo(/Echo: matrix/),
  },
  {
    server: 'server-filesystem',
    transport: 'stdio',
    protocol: '2025-11-25',
    options: () => node(FILESYSTEM_BIN, dir),
    call: { tool: 'list_allowed_directories', args: {}, text: /Allowed directories/ },
  },
  {
    server: 'server-memory',
    transport: 'stdio',
    protocol: '2025-11-25',
    options: () => ({ ...node(MEMORY_BIN), env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } }),
    call: { tool: 'read_graph', args: {}, text: /entities/ },
  },
  {
    server: 'server-sequential-thinking',
    transport: 'stdio',
    protocol: '2025-11-25',
    options: () => node(THINKING_BIN),
    call: {
      tool: 'sequentialthinking',
      args: { thought: 'one', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false },
      text: /thoughtNumber/,
    },
  },
  {
    server: 'v1 SDK server',
    transport: 'stdio',
    protocol: '2025-11-25',
    options: () => node(fixture('v1-sdk-server.mjs')),
    call: echo(/Echo: matrix/),
  },
  {
    server: 'v2 SDK server',
    transport: 'stdio',
    protocol: '2026-07-28',
    options: () => node(fixture('v2-sdk-server.mjs')),
    call: echo(/Echo: matrix/),
  },
  {
    server: 'v2 SDK server (serveMcp)',
    transport: 'http',
    protocol: '2026-07-28',
    options: () => ({ url: v2Http?.url as string }),
    call: echo(/Echo: matrix/),
  },
  {
    server: 'hand-written 2025-06-18 server (exits on a first request other than initialize)',
    transport: 'stdio',
    protocol: '2025-06-18',
    options: () => node(fixture('minimal-2025-server.mjs'), 'strict'),
    call: echo(/Echo: matrix/),
  },
];

describe('compatibility matrix: connectMcp with the default settings', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-matrix-'));
    const port = await freePort();
    everythingHttp = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve) => {
      everythingHttp?.stderr?.setEncoding('utf8').on('data', (text: string) => {
        if (text.includes('listening')) resolve();
      });
    });
    everythingUrl = `http://127.0.0.1:${port}/mcp`;
    const registry = new ToolRegistry();
    registry.register(
      defineTool({
        name: 'echo',
        description: 'Echoes its message',
        input: {
          type: 'object',
          properties: { message: { type: 'string' } },
          required: ['message'],
          additionalProperties: false,
        },
        execute: ({ message }) => `Echo: ${String(message)}`,
      }),
    );
    v2Http = await serveMcp(registry, { name: 'v2', version: '1.0.0', http: { port: 0 } });
  });
  afterAll(async () => {
    everythingHttp?.kill();
    await v2Http?.close();
  });

  it.each(ROWS)('$server over $transport speaks $protocol', async ({ protocol, options, call }) => {
    const client = await connectMcp({ name: 'matrix', ...options() } as ConnectMcpOptions);
    try {
      expect(client.protocolVersion).toBe(protocol);
      const tools = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain(call.tool);
      expect(client.tools().map((tool) => tool.name)).toContain(call.tool);
      const result = await lastValueFrom(client.callTool(call.tool, call.args));
      expect(result).toMatchObject({ type: 'result', isError: false });
      expect(JSON.stringify(result)).toMatch(call.text);
    } finally {
      await client.close();
    }
  });
});
