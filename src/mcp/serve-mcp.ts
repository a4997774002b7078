import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { ToolRegistry } from '../tools/index.ts';
import type { McpAuthenticate } from './http-request-view.ts';
import { listenHttp } from './listen-http.ts';
import { LimitedStdioServerTransport } from './limited-stdio-server-transport.ts';
import { type McpListNotifier, listNotifier } from './list-notifier.ts';
import { mcpHttpHandler } from './mcp-http-handler.ts';
import type { McpHttpServeOptions } from './mcp-http-endpoint.ts';
import type { McpServeAuth } from './protected-resource.ts';
import { registryServerFactory, type ServeMcpCommonOptions } from './registry-server-factory.ts';

export type { ServeMcpCommonOptions } from './registry-server-factory.ts';

/** Serve over stdin/stdout. */
export interface ServeMcpStdioOptions extends ServeMcpCommonOptions {
  transport: 'stdio';
  /** @default process.stdin */
  stdin?: Readable;
  /** @default process.stdout */
  stdout?: Writable;
  /**
   * The longest message read from stdin. A longer one is dropped as it arrives and answered with
   * a JSON-RPC `-32600` error (its id read from its ends); the connection goes on.
   * @default 10_485_760 (10 MiB, the SDK's limit)
   */
  maxMessageBytes?: number;
}

/** Serve over Streamable HTTP. */
export interface ServeMcpHttpOptions extends ServeMcpCommonOptions {
  http: McpHttpServeOptions;
  /** Authenticates every request; its actor is the `actor` of each call, `null` answers 401. */
  authenticate?: McpAuthenticate;
  /**
   * MCP authorization: `authenticate` plus the authorization servers clients get tokens from,
   * served as protected-resource metadata and named in each 401's `resource_metadata`.
   */
  auth?: McpServeAuth;
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
 * 127.0.0.1 by default and checks `Host` and `Origin`; `mcpHttpHandler` mounts the same endpoint
 * on a server of your own.
 * @example
 * const server = await serveMcp(registry, { name: 'tools', version: '1.0.0', http: { port: 0 } });
 * console.log(server.url); // http://127.0.0.1:43817/mcp
 * await server.close();
 */
export async function serveMcp(registry: ToolRegistry, options: ServeMcpOptions): Promise<McpServerHandle> {
  if ('transport' in options) {
    const factory = registryServerFactory(registry, options);
    const live = new Set<McpServer>();
    const onError = options.onError ?? (() => undefined);
    const transport = new LimitedStdioServerTransport(
      options.stdin,
      options.stdout,
      options.maxMessageBytes,
      onError,
    );
    const handle = serveStdio(
      (ctx) => {
        const server = factory.create(ctx.era);
        live.add(server);
        server.server.onclose = () => live.delete(server);
        return server;
      },
      { transport, onerror: onError },
    );
    const notify = listNotifier(() => live, undefined, factory.syncTools);
    return { url: undefined, notify, close: () => handle.close() };
  }
  const endpoint = mcpHttpHandler(registry, options);
  const listener = await listenHttp(
    (req, res) => void endpoint.handle(req, res),
    options.http.host ?? '127.0.0.1',
    options.http.port ?? 0,
    endpoint.path,
  );
  return {
    url: listener.url,
    notify: endpoint.notify,
    close: async () => {
      await endpoint.close();
      await listener.close();
    },
  };
}
