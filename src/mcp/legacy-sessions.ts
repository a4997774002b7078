import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { type AuthInfo, isInitializeRequest, type McpServer } from '@modelcontextprotocol/server';
import { type EventStoreLimits, memoryEventStore } from './memory-event-store.ts';

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
  transport: NodeStreamableHTTPServerTransport;
  server: McpServer;
  /** The actor that opened it (`undefined` without authentication): only it may use the session. */
  owner: string | undefined;
  lastSeen: number;
  /** Requests (and open SSE streams) under way: a session in use never expires. */
  busy: number;
}

type Reply = (status: number, code: number, message: string) => void;

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
  readonly #sweeper: NodeJS.Timeout;

  constructor(factory: () => McpServer, limits: LegacySessionLimits = {}) {
    this.#factory = factory;
    this.#idleMs = limits.sessionIdleMs ?? 900_000;
    this.#max = limits.maxSessions ?? 1_000;
    this.#eventStore = limits.eventStore ?? {};
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(50, Math.min(this.#idleMs / 4, 60_000)));
    this.#sweeper.unref();
  }

  /** The SDK servers of the open sessions (for list-change notifications). */
  servers(): McpServer[] {
    return [...this.#sessions.values()].map((session) => session.server);
  }

  /** Handles one 2025-era request (the body already read and parsed). */
  async handle(
    req: IncomingMessage & { auth?: AuthInfo },
    res: ServerResponse,
    body: unknown,
    reply: Reply,
  ): Promise<void> {
    const sessionId = req.headers['mcp-session-id'];
    const id = Array.isArray(sessionId) ? sessionId[0] : sessionId;
    const owner = req.auth?.clientId;
    if (id !== undefined) {
      const session = this.#sessions.get(id);
      if (!session || session.owner !== owner) return reply(404, -32001, 'Session not found');
      return this.#serve(session, () => session.transport.handleRequest(req, res, body), res);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return reply(400, -32000, 'Bad Request: an Mcp-Session-Id header is required');
    }
    if (this.#sessions.size >= this.#max) {
      res.setHeader('retry-after', '30');
      return reply(503, -32000, 'Too many sessions; try again later');
    }
    await this.#open(req, res, body, owner);
  }

  /** Closes every session and stops expiring them. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => this.#end(session)));
  }

  async #open(req: IncomingMessage, res: ServerResponse, body: unknown, owner: string | undefined) {
    const server = this.#factory();
    const session: Session = { transport: undefined as never, server, owner, lastSeen: Date.now(), busy: 0 };
    session.transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: memoryEventStore(this.#eventStore),
      onsessioninitialized: (id) => void this.#sessions.set(id, session),
      onsessionclosed: (id) => void this.#sessions.delete(id),
    });
    session.transport.onclose = () => {
      const id = session.transport.sessionId;
      if (id !== undefined && this.#sessions.delete(id)) server.close().catch(() => undefined);
    };
    await server.connect(session.transport);
    await this.#serve(session, () => session.transport.handleRequest(req, res, body), res);
  }

  /** Runs a request of the session; the session counts as busy until its response has ended. */
  async #serve(session: Session, run: () => Promise<void>, res: ServerResponse): Promise<void> {
    session.busy++;
    session.lastSeen = Date.now();
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      session.busy--;
      session.lastSeen = Date.now();
    };
    res.once('close', finish);
    try {
      await run();
    } finally {
      if (res.writableEnded) finish();
    }
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
