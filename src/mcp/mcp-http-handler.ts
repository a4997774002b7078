import type { ToolRegistry } from '../tools/index.ts';
import type { McpAuthenticate } from './http-request-view.ts';
import { McpHttpEndpoint, type McpHttpServeOptions } from './mcp-http-endpoint.ts';
import type { McpServeAuth } from './protected-resource.ts';
import { registryServerFactory, type ServeMcpCommonOptions } from './registry-server-factory.ts';

/** What `mcpHttpHandler` takes: `serveMcp`'s HTTP options (`host` and `port` are not used). */
export interface McpHttpHandlerOptions extends ServeMcpCommonOptions {
  http?: McpHttpServeOptions;
  authenticate?: McpAuthenticate;
  auth?: McpServeAuth;
}

/**
 * The `serveMcp` HTTP endpoint as a handler to mount on a server of your own (TLS, other routes, a
 * framework): on Node, `handle(req, res, next?)` serves its path and the protected-resource
 * metadata, and hands anything else to `next` (404 without it); on a fetch-style server (Deno, Bun,
 * Hono), `fetch(request)` answers with a `Response`. Both faces share one
 * mechanism: checks, limits, sessions and their owners. `close()` ends its sessions.
 * @example
 * const mcp = mcpHttpHandler(registry, { name: 'tools', version: '1.0.0', http: { path: '/mcp' } });
 * createServer((req, res) => mcp.handle(req, res, () => app(req, res))).listen(8080);
 * Deno.serve(mcp.fetch);
 */
export function mcpHttpHandler(registry: ToolRegistry, options: McpHttpHandlerOptions): McpHttpEndpoint {
  const factory = registryServerFactory(registry, options);
  const auth = options.auth ?? (options.authenticate ? { authenticate: options.authenticate } : undefined);
  return new McpHttpEndpoint({
    factory: (era) => factory.create(era),
    options: options.http ?? {},
    auth,
    onError: options.onError ?? (() => undefined),
    syncTools: factory.syncTools,
  });
}
