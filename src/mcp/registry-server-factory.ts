import { McpServer, type McpServerOptions } from '@modelcontextprotocol/server';
import type { Actor } from '../security/index.ts';
import type { ToolRegistry } from '../tools/index.ts';
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

/** SDK server instances serving a registry, and how to bring a live one up to date. */
export interface RegistryServerFactory {
  create(era: 'legacy' | 'modern'): McpServer;
  /** Syncs a live instance's tools with the registry (after `register`/`unregister`). */
  syncTools(server: McpServer): void;
}

/** Builds the SDK server instances that serve `registry` (one per session, request or connection). */
export function registryServerFactory(
  registry: ToolRegistry,
  options: ServeMcpCommonOptions,
): RegistryServerFactory {
  const { serverOptions = {} } = options;
  const syncs = new WeakMap<McpServer, () => void>();
  return {
    create: (era) => {
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
    },
    syncTools: (server) => syncs.get(server)?.(),
  };
}
