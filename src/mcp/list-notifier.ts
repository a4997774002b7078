import type { McpServer, ServerNotifier } from '@modelcontextprotocol/server';

/** Tells connected clients that a list (or a resource) changed. */
export interface McpListNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

/**
 * One notifier over both eras: each live 2025 connection gets its `list_changed` notification (its
 * tools synced with the registry by `syncTools` first), and the 2026 handler's bus (when there is
 * one) reaches every open `subscriptions/listen` stream.
 */
export function listNotifier(
  servers: () => Iterable<McpServer>,
  modern: ServerNotifier | undefined,
  syncTools: (server: McpServer) => void = () => undefined,
): McpListNotifier {
  const each = (send: (server: McpServer) => Promise<void> | void) => {
    for (const server of servers()) {
      if (!server.isConnected()) continue;
      void Promise.resolve(send(server)).catch(() => undefined);
    }
  };
  return {
    toolsChanged: () => {
      modern?.toolsChanged();
      // A long-lived server instance lists what it registered: bring it up to date first.
      each((server) => {
        syncTools(server);
        return server.sendToolListChanged();
      });
    },
    promptsChanged: () => {
      modern?.promptsChanged();
      each((server) => server.sendPromptListChanged());
    },
    resourcesChanged: () => {
      modern?.resourcesChanged();
      each((server) => server.sendResourceListChanged());
    },
    resourceUpdated: (uri) => {
      modern?.resourceUpdated(uri);
      each((server) => server.server.sendResourceUpdated({ uri }));
    },
  };
}
