import {
  type AuthInfo,
  isInitializeRequest,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { jsonErrorResponse } from './http-request-view.ts';
import { type EventStoreLimits, memoryEventStore } from './memory-event-store.ts';
import { onResponseEnd } from './on-response-end.ts';

/** How many 2025-era sessions a server keeps, and for how long. */
export interface LegacySessionLimits {
  /** A session with no request for this long is closed. @default 900_000 (15 minutes) */
  sessionIdleMs?: number;
  /** Sessions open at once; past it a new session is answered 503. @default 1_000 */
  maxSessions?: number;
  /** What each session keeps for `Last-Event-ID` replay. */
  eventStore?: EventStoreLimits;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** The actor that opened it (`undefined` without authentication): only it may use the session. */
  owner: string | undefined;
  lastSeen: number;
  /** Requests (and open SSE streams) under way: a session in use never expires. */
  busy: number;
}

/**
 * The sessionful 2025-era side of the endpoint: one SDK server and transport per `Mcp-Session-Id`,
 * owned by the actor that opened it (another actor gets 404, as for an unknown id), closed after
 * `sessionIdleMs` without a request, at most `maxSessions` at once.
 */
export class LegacySessions {
  readonly #sessions = new Map<string, Session>();
  readonly #factory: () => McpServer;
  readonly #idleMs: number;
  readonly #max: number;
  readonly #eventStore: EventStoreLimits;
  readonly #sweeper: ReturnType<typeof setInterval>;
  /** Initialize requests being answered: sessions about to be. */
  #opening = 0;

  constructor(factory: () => McpServer, limits: LegacySessionLimits = {}) {
    this.#factory = factory;
    this.#idleMs = limits.sessionIdleMs ?? 900_000;
    this.#max = limits.maxSessions ?? 1_000;
    this.#eventStore = limits.eventStore ?? {};
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(50, Math.min(this.#idleMs / 4, 60_000)));
    // Node and Deno can let a process exit with the sweeper still set.
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  /** The SDK servers of the open sessions (for list-change notifications). */
  servers(): McpServer[] {
    return [...this.#sessions.values()].map((session) => session.server);
  }

  /** Answers one 2025-era request (its body already read and parsed). */
  async handle(request: Request, body: unknown, authInfo: AuthInfo | undefined): Promise<Response> {
    const id = request.headers.get('mcp-session-id') ?? undefined;
    const owner = authInfo?.clientId;
    const options = { parsedBody: body, ...(authInfo ? { authInfo } : {}) };
    if (id !== undefined) {
      const session = this.#sessions.get(id);
      if (!session || session.owner !== owner) return jsonErrorResponse(404, -32001, 'Session not found');
      return this.#serve(session, () => session.transport.handleRequest(request, options));
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) {
      return jsonErrorResponse(400, -32000, 'Bad Request: an Mcp-Session-Id header is required');
    }
    // Sessions still opening count too: they join the map only once their initialize is answered,
    // and initialize requests that arrive together would otherwise all pass the check.
    if (this.#sessions.size + this.#opening >= this.#max) {
      return jsonErrorResponse(503, -32000, 'Too many sessions; try again later', { 'retry-after': '30' });
    }
    this.#opening++;
    try {
      const session = await this.#open(owner);
      return await this.#serve(session, () => session.transport.handleRequest(request, options));
    } finally {
      this.#opening--;
    }
  }

  /** Closes every session and stops expiring them. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => this.#end(session)));
  }

  async #open(owner: string | undefined): Promise<Session> {
    const server = this.#factory();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      eventStore: memoryEventStore(this.#eventStore),
      onsessioninitialized: (id) => void this.#sessions.set(id, session),
      onsessionclosed: (id) => void this.#sessions.delete(id),
    });
    const session: Session = { transport, server, owner, lastSeen: Date.now(), busy: 0 };
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && this.#sessions.delete(id)) server.close().catch(() => undefined);
    };
    await server.connect(transport);
    return session;
  }

  /** Runs a request of the session; the session counts as busy until its response has ended. */
  async #serve(session: Session, run: () => Promise<Response>): Promise<Response> {
    session.busy++;
    session.lastSeen = Date.now();
    const finish = () => {
      session.busy--;
      session.lastSeen = Date.now();
    };
    let response: Response;
    try {
      response = await run();
    } catch (error) {
      finish();
      throw error;
    }
    return onResponseEnd(response, finish);
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (session.busy > 0 || now - session.lastSeen < this.#idleMs) continue;
      this.#sessions.delete(id);
      void this.#end(session);
    }
  }

  async #end({ transport, server }: Session): Promise<void> {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}
