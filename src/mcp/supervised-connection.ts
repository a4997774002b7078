import { BehaviorSubject, type Observable } from 'rxjs';
import { McpError } from '../core/index.ts';
import { type ConnectMcpOptions, isStdioOptions } from './connect-options.ts';
import { closeConnection } from './close-connection.ts';
import { type ConnectionHooks, type McpConnection, openConnection } from './open-connection.ts';
import { superviseRestart } from './supervise-restart.ts';
import { isSessionExpired, toMcpError } from './to-mcp-error.ts';

/** Where a client is: serving calls, restarting a crashed server, or down for good. */
export type McpClientStatus = 'connected' | 'restarting' | 'failed' | 'closed';

/**
 * The live connection behind an `McpClient`, kept alive: a crashed stdio server is restarted
 * (bounded, with backoff), an HTTP session the server forgot is re-initialized (concurrent callers
 * share one attempt), and `status$` says which. `onOpened` runs after every (re)start.
 */
export class SupervisedConnection {
  readonly #options: ConnectMcpOptions;
  readonly #onToolsChanged: () => void;
  readonly #onRestarted: () => void;
  readonly #status$ = new BehaviorSubject<McpClientStatus>('connected');
  #connection: McpConnection | undefined;
  #reconnecting: Promise<McpConnection> | undefined;
  #stopRestart: (() => void) | undefined;
  /** Aborted by `close()`: every connect under way (a restart, a re-initialization) gives up. */
  readonly #closing = new AbortController();
  /** Connects under way, so that `close()` can wait for them to give up and close what they opened. */
  readonly #opening = new Set<Promise<McpConnection>>();
  /** Crashes since the last successful call: a server that keeps crashing is given up. */
  #crashes = 0;

  readonly #notifications: Pick<ConnectionHooks, 'onResourceUpdated' | 'onLog'>;

  constructor(
    options: ConnectMcpOptions,
    hooks: { onToolsChanged: () => void; onRestarted: () => void } & Pick<
      ConnectionHooks,
      'onResourceUpdated' | 'onLog'
    >,
  ) {
    this.#options = options;
    this.#onToolsChanged = hooks.onToolsChanged;
    this.#onRestarted = hooks.onRestarted;
    const { onResourceUpdated, onLog } = hooks;
    this.#notifications = {
      ...(onResourceUpdated ? { onResourceUpdated } : {}),
      ...(onLog ? { onLog } : {}),
    };
  }

  /** Opens the first connection. Rejects with `McpError` (`connect_failed`). */
  async start(): Promise<McpConnection> {
    this.#connection = await this.#open();
    return this.#connection;
  }

  get status$(): Observable<McpClientStatus> {
    return this.#status$.asObservable();
  }

  get status(): McpClientStatus {
    return this.#status$.value;
  }

  /** The connection while there is one (none while restarting or after a failure). */
  get current(): McpConnection | undefined {
    return this.#connection;
  }

  /** A call completed: the server is healthy again. */
  succeeded(): void {
    this.#crashes = 0;
  }

  /** The live connection, or an `unavailable` `McpError` saying why there is none. */
  live(): McpConnection {
    if (this.#connection) return this.#connection;
    const why =
      this.status === 'restarting' ? 'is restarting' : this.status === 'closed' ? 'is closed' : 'is down';
    const server = this.#options.name;
    throw new McpError(`${server}: the server ${why}`, { server, reason: 'unavailable' });
  }

  /** Re-initializes an HTTP session the server no longer knows; concurrent callers share one attempt. */
  reconnect(): Promise<McpConnection> {
    this.#reconnecting ??= (async () => {
      const stale = this.#connection;
      this.#connection = undefined;
      await stale?.transport.close().catch(() => undefined);
      const next = await this.#open();
      if (this.status === 'closed') {
        await next.client.close();
        const server = this.#options.name;
        throw new McpError(`${server}: the client is closed`, { server, reason: 'unavailable' });
      }
      this.#connection = next;
      return next;
    })().finally(() => (this.#reconnecting = undefined));
    return this.#reconnecting;
  }

  /** Sends a request on the live connection, once more on a fresh session if the server forgot it. */
  async request<T>(send: (client: McpConnection['client']) => Promise<T>): Promise<T> {
    const server = this.#options.name;
    try {
      return await send(this.live().client);
    } catch (error) {
      if (!isSessionExpired(error)) throw toMcpError(server, error, 'protocol');
      try {
        return await send((await this.reconnect()).client);
      } catch (retryError) {
        throw toMcpError(server, retryError, 'protocol');
      }
    }
  }

  /** Ends the connection (a stdio server's whole process group) and any restart under way. */
  async close(): Promise<void> {
    if (this.status === 'closed') return;
    this.#status$.next('closed');
    this.#stopRestart?.();
    this.#closing.abort();
    const connection = this.#connection;
    this.#connection = undefined;
    await Promise.all([
      connection && closeConnection(connection),
      // A connect that finished just as it was abandoned is closed too: nobody will use it.
      ...[...this.#opening].map((opening) =>
        opening.then(
          (opened) => closeConnection(opened),
          () => undefined,
        ),
      ),
    ]);
    this.#status$.complete();
  }

  #onClosed(connection: McpConnection): void {
    if (this.#connection !== connection || this.status === 'closed') return;
    this.#connection = undefined;
    const restart = isStdioOptions(this.#options) ? this.#options.restart : false;
    if (restart === false || ++this.#crashes > (restart?.maxRestarts ?? 5)) {
      this.#status$.next('failed');
      return;
    }
    const server = this.#options.name;
    this.#status$.next('restarting');
    this.#options.logger?.warn?.({ server }, 'MCP server exited; restarting');
    this.#stopRestart = superviseRestart(restart ?? {}, () => this.#open(), {
      restarted: (next) => {
        this.#connection = next;
        this.#status$.next('connected');
        this.#onRestarted();
      },
      gaveUp: (error) => {
        this.#status$.next('failed');
        this.#options.logger?.warn?.({ server, error }, 'MCP server restart failed');
      },
    });
  }

  #open(): Promise<McpConnection> {
    let connection: McpConnection | undefined;
    const opening = openConnection(
      this.#options,
      {
        ...this.#notifications,
        onToolsChanged: () => this.#onToolsChanged(),
        onClosed: () => connection && this.#onClosed(connection),
      },
      this.#closing.signal,
    ).then((opened) => (connection = opened));
    this.#opening.add(opening);
    const settled = () => void this.#opening.delete(opening);
    opening.then(settled, settled);
    return opening;
  }
}
