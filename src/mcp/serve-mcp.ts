import type { Readable, Writable } from 'node:stream';
import { McpServer, type McpServerOptions } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Actor } from '../security/index.ts';
import type { ToolRegistry } from '../tools/index.ts';
import { type McpAuthenticate, type McpHttpServeOptions, McpHttpServer } from './mcp-http-server.ts';
import { type McpListNotifier, listNotifier } from './list-notifier.ts';
import { addRegistryTools } from './registry-tools.ts';

/** Options of every served endpoint. */
export interface ServeMcpCommonOptions {
  /** The server's name and version, as clients see them. */
  name: string;
  version: string;
  instructions?: string;
  /** The actor of calls that carry no authenticated one (stdio, or HTTP without `authenticate`). */
  actor?: Actor;
  /** More options of each SDK server instance (capabilities are merged over `tools`). */
  serverOptions?: McpServerOptions;
  /**
   * Adds more to each SDK server instance (resources, prompts, completions) with the SDK's own API;
   * called once per server instance (per 2025 session, per 2026 request, once for stdio).
   */
  configure?: (server: McpServer, context: { era: 'legacy' | 'modern' }) => void;
  /** Errors of the transport layer (never thrown into the caller). */
  onError?: (error: Error) => void;
}

/** Serve over stdin/stdout. */
export interface ServeMcpStdioOptions extends ServeMcpCommonOptions {
  transport: 'stdio';
  /** @default process.stdin */
  stdin?: Readable;
  /** @default process.stdout */
  stdout?: Writable;
}

/** Serve over Streamable HTTP. */
export interface ServeMcpHttpOptions extends ServeMcpCommonOptions {
  http: McpHttpServeOptions;
  /** Authenticates every request; its actor is the `actor` of each call, `null` answers 401. */
  authenticate?: McpAuthenticate;
}

/** What `serveMcp` takes. */
export type ServeMcpOptions = ServeMcpStdioOptions | ServeMcpHttpOptions;

/** A running MCP endpoint. */
export interface McpServerHandle {
  /** The HTTP endpoint's URL (`undefined` for stdio). */
  readonly url: string | undefined;
  /** Tells connected clients a list changed (e.g. after `registry.register`). */
  readonly notify: McpListNotifier;
  close(): Promise<void>;
}

/**
 * Serves a `ToolRegistry` over MCP (both 2026-07-28 and 2025-11-25): every call goes through the
 * registry's allow/deny list, strict validation, policy, authorization and audit. HTTP binds
 * 127.0.0.1 by default and checks `Host` and `Origin`.
 * @example
 * const server = await serveMcp(registry, { name: 'tools', version: '1.0.0', http: { port: 0 } });
 * console.log(server.url); // http://127.0.0.1:43817/mcp
 * await server.close();
 */
export async function serveMcp(registry: ToolRegistry, options: ServeMcpOptions): Promise<McpServerHandle> {
  const onError = options.onError ?? (() => undefined);
  const { serverOptions = {} } = options;
  const syncs = new WeakMap<McpServer, () => void>();
  const syncTools = (server: McpServer) => syncs.get(server)?.();
  const factory = (era: 'legacy' | 'modern') => {
    const server = new McpServer(
      { name: options.name, version: options.version },
      {
        ...serverOptions,
        capabilities: { tools: { listChanged: true }, ...serverOptions.capabilities },
        ...(options.instructions ? { instructions: options.instructions } : {}),
      },
    );
    syncs.set(server, addRegistryTools(server, registry, options.actor));
    options.configure?.(server, { era });
    return server;
  };
  if ('transport' in options) {
    const live = new Set<McpServer>();
    const transport = new StdioServerTransport(options.stdin, options.stdout);
    const handle = serveStdio(
      (ctx) => {
        const server = factory(ctx.era);
        live.add(server);
        server.server.onclose = () => live.delete(server);
        return server;
      },
      { transport, onerror: onError },
    );
    return {
      url: undefined,
      notify: listNotifier(() => live, undefined, syncTools),
      close: () => handle.close(),
    };
  }
  const http = new McpHttpServer(factory, options.http, options.authenticate, onError, syncTools);
  const url = await http.listen(options.http.host ?? '127.0.0.1', options.http.port ?? 0);
  return { url, notify: http.notify, close: () => http.close() };
}
