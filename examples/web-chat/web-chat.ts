/**
 * The web chat's HTTP server: one page, and the endpoints that start, watch, stop and answer runs.
 *
 *   POST /api/chat                      { message, sessionId } → 201 { runId }: starts a run
 *   GET  /api/runs/:id                  the run's events as SSE; EventSource resumes with Last-Event-ID
 *   POST /api/runs/:id/cancel           stops the run (a disconnect does not)
 *   POST /api/runs/:id/approvals/:call  { approved } answers a pending approval
 *   GET  /api/sessions/:id              the conversation so far, and the run in progress (a reload)
 *
 * The runs live in this process (`inProcessChat`, a `RunRegistry`) or on durable runs' workers
 * (`durableChat` in durable-chat.ts): the endpoints are the same, over the `Runs` interface.
 *
 * Each browser is a person (an actor): the page gives it a random id in an HttpOnly, SameSite=Strict
 * cookie. Its conversations and runs are its own: another browser (or another site's page, or curl)
 * that knows or guesses a session or run id gets what an unknown id gets, a 404.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Actor, type ChatModel, memorySessionStore, type SessionStore, textOf } from 'rxagent';
import { RunRegistry, type Runs, runErrorAnswer, writeSSE } from 'rxagent/http';
import { chatAgent } from './chat-agent.ts';

/** Where the chat's runs run: what the endpoints need. */
export interface ChatBackend {
  runs: Runs;
  /** Where the conversations are kept (a reload reads them). */
  sessions: SessionStore;
  /** Starts a run of `message` in `sessionId`, owned by `actor`; resolves with its id. */
  start(message: string, sessionId: string, actor: Actor): Promise<string>;
  /** Rejects with `RunNotFoundError` / `ReplayExpiredError` before a stream starts. */
  check(runId: string, options: { lastEventId?: string; actor?: Actor }): Promise<void>;
  close(): Promise<void>;
}

/** A running web chat. */
export interface WebChat {
  url: string;
  runs: Runs;
  close(): Promise<void>;
}

/** The chat's runs in this process: the agent on a `RunRegistry`, its sessions in memory. */
export function inProcessChat(model: ChatModel): ChatBackend {
  const sessions = memorySessionStore();
  const agent = chatAgent(model, sessions);
  const runs = new RunRegistry({ graceMs: 120_000, retainMs: 300_000 });
  return {
    runs,
    sessions,
    start: async (message, sessionId, actor) =>
      runs.start(({ approve, signal }) => agent.run(message, { sessionId, approve, signal }), { actor }).id,
    check: (runId, options) => runs.check(runId, options),
    close: async () => runs.close(),
  };
}

const ended = new Set(['completed', 'failed', 'cancelled']);

const page = new URL('./public/', import.meta.url);
const assets: Record<string, URL> = {
  '/': new URL('index.html', page),
  '/app.js': new URL('app.js', page),
  // The page renders markdown with marked and sanitizes it with DOMPurify, served from their packages.
  '/vendor/marked.js': new URL(import.meta.resolve('marked')),
  '/vendor/purify.js': new URL(import.meta.resolve('dompurify')),
};
/** The longest message the chat accepts, in characters. */
const maxMessageLength = 500_000;
const types: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

/**
 * Starts the web chat on 127.0.0.1.
 * @param backend where its runs run (`inProcessChat(model)`, or `durableChat(...)`)
 * @param port 0 picks a free port
 */
export async function startWebChat(backend: ChatBackend, port = 0): Promise<WebChat> {
  const { runs, sessions } = backend;
  /** Each session's run in progress: its message, and how many messages the session held before. */
  const inProgress = new Map<string, { runId: string; message: string; before: number }>();
  /** The session's run in progress, if it has not ended (wherever it runs). */
  const running = async (key: string) => {
    const run = inProgress.get(key);
    if (!run) return undefined;
    if (!ended.has((await runs.status(run.runId)) ?? 'completed')) return run;
    if (inProgress.get(key) === run) inProgress.delete(key);
    return undefined;
  };

  const routes = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const known = actorOf(req);
    const asset = assets[url.pathname];
    if (req.method === 'GET' && asset) {
      const body = await readFile(asset);
      // The page makes a person of the browser that opens it (if it is not one already).
      if (!known && url.pathname === '/') newActor(res);
      res
        .writeHead(200, { 'content-type': types[asset.pathname.endsWith('.html') ? 'html' : 'js']! })
        .end(body);
      return;
    }
    const actor = known;
    /** Who asks, for the runs' owner checks: no cookie is no one, refused by an owned run. */
    const as = actor ? { actor } : {};
    if (req.method === 'POST' && url.pathname === '/api/chat') {
      // A browser that never opened the page (a script) becomes a person by sending.
      const owner = actor ?? newActor(res);
      const { message, sessionId } = (await json(req)) as { message?: unknown; sessionId?: unknown };
      if (typeof message !== 'string' || typeof sessionId !== 'string' || !/^[\w-]{1,64}$/.test(sessionId)) {
        return send(res, 400, { error: { message: 'message and sessionId are required' } });
      }
      if (message.length > maxMessageLength)
        return send(res, 413, {
          error: { message: `A message holds at most ${maxMessageLength} characters` },
        });
      const key = storeKey(owner, sessionId);
      const before = (await sessions.get(key))?.messages.length ?? 0;
      const runId = await backend.start(message, key, owner);
      inProgress.set(key, { runId, message, before });
      return send(res, 201, { runId });
    }
    const session = /^\/api\/sessions\/([\w-]{1,64})$/.exec(url.pathname);
    if (req.method === 'GET' && session) {
      const key = actor && storeKey(actor, session[1]!);
      const run = key === undefined ? undefined : await running(key);
      const stored = key === undefined ? undefined : await sessions.get(key);
      // Another person's session is not found, exactly as one nobody started.
      if (!stored && !run) return send(res, 404, { error: { message: 'Not found' } });
      // A run's turn joins the session as it ends: until then the page shows it from the run.
      const messages = (stored?.messages ?? []).slice(0, run?.before);
      return send(res, 200, {
        messages: messages
          .filter((m) => m.role !== 'system')
          .map((m) => ({
            role: m.role,
            text: textOf(m.content),
            ...(m.toolCalls
              ? {
                  toolCalls: m.toolCalls.map(({ id, name, arguments: input }) => ({
                    id,
                    name,
                    arguments: input,
                  })),
                }
              : {}),
            ...(m.toolCallId ? { toolCallId: m.toolCallId } : {}),
          })),
        run: run ? { id: run.runId, message: run.message } : null,
      });
    }
    const match = /^\/api\/runs\/([\w-]+)(?:\/(cancel|approvals\/([\w-]+)))?$/.exec(url.pathname);
    if (!match) return send(res, 404, { error: { message: 'Not found' } });
    const [, runId = '', action, toolCallId] = match;
    if (req.method === 'GET' && !action) {
      const lastEventId = req.headers['last-event-id'];
      const options = typeof lastEventId === 'string' ? { lastEventId } : {};
      // An unknown run is a 404 and an expired replay a 410, before the stream starts.
      // Another person's run is a 404 too (RunNotFoundError).
      await backend.check(runId, { ...options, ...as });
      writeSSE(runs.attach(runId, { ...options, ...as }), res, { retryMs: 500, heartbeatMs: 10_000 });
      return;
    }
    if (req.method === 'POST' && action === 'cancel')
      return send(res, 200, { cancelled: await runs.cancel(runId, as) });
    if (req.method === 'POST' && toolCallId) {
      const { approved } = (await json(req)) as { approved?: unknown };
      // A call no longer waiting (decided, or its run ended) is a 409 from runErrorAnswer.
      await runs.decide(runId, toolCallId, { approved: approved === true }, as);
      return send(res, 200, { decided: true });
    }
    send(res, 405, { error: { message: 'Method not allowed' } });
  };

  const server = createServer((req, res) => {
    const refused = foreign(req);
    if (refused) return send(res, 403, { error: { message: refused } });
    routes(req, res).catch((error: unknown) => {
      const { status, body } = runErrorAnswer(error);
      if (!res.headersSent) send(res, status, body);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject); // a port in use: EADDRINUSE
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    runs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => void backend.close().then(resolve, resolve));
      }),
  };
}

/** The names this machine goes by: the chat answers to these only. */
const localNames = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why a request comes from another site, or `undefined` when it does not. Listening on 127.0.0.1
 * keeps other machines out, not other sites' pages in the person's browser: a host name that is not
 * this machine's is DNS rebinding (evil.example made to resolve to 127.0.0.1, so its page reads the
 * answers), and a POST from another origin (a form, or a text/plain fetch, which needs no CORS
 * preflight) would start runs, spending the person's API key, or answer approvals.
 */
function foreign(req: IncomingMessage): string | undefined {
  const host = req.headers.host ?? '';
  if (!localNames.has(host.replace(/:\d+$/, '').toLowerCase()))
    return 'This chat answers at 127.0.0.1 or localhost only';
  const origin = req.headers.origin;
  if (req.method !== 'GET' && req.method !== 'HEAD' && origin !== undefined && origin !== `http://${host}`)
    return 'Requests from another site are refused';
  return undefined;
}

/** The cookie that makes a browser a person: a random id, which scripts on the page cannot read. */
const actorCookie = 'rxagent-chat';

/** The person a request comes from, by its cookie; none without one. */
function actorOf(req: IncomingMessage): Actor | undefined {
  const id = new RegExp(`(?:^|;\\s*)${actorCookie}=([0-9a-f-]{36})(?:;|$)`).exec(
    req.headers.cookie ?? '',
  )?.[1];
  return id === undefined ? undefined : { id };
}

/** A new person: an unguessable id, set as the browser's cookie in the answer. */
function newActor(res: ServerResponse): Actor {
  const id = crypto.randomUUID();
  res.setHeader('set-cookie', `${actorCookie}=${id}; Path=/; HttpOnly; SameSite=Strict`);
  return { id };
}

/**
 * Where a person's session is kept: under their id and the page's, so the page's id (which the page
 * chose, and a person may share) never reaches anyone else's conversation.
 */
const storeKey = (actor: Actor, sessionId: string) => `${actor.id}_${sessionId}`;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function json(req: IncomingMessage): Promise<unknown> {
  // Decoded once, whole: a chunk may end inside a multi-byte character.
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  try {
    return JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch {
    return {};
  }
}
