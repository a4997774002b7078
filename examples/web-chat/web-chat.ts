/**
 * The web chat's HTTP server: one page, and the endpoints that start, watch, stop and answer runs.
 *
 *   POST /api/chat                      { message, sessionId } → 201 { runId }: starts a run
 *   GET  /api/runs/:id                  the run's events as SSE; EventSource resumes with Last-Event-ID
 *   POST /api/runs/:id/cancel           stops the run (a disconnect does not)
 *   POST /api/runs/:id/approvals/:call  { approved } answers a pending approval
 *
 * The runs live in this process (`inProcessChat`, a `RunRegistry`) or on durable runs' workers
 * (`durableChat` in durable-chat.ts): the endpoints are the same, over the `Runs` interface.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ChatModel, memorySessionStore } from 'rxagent';
import { RunRegistry, type Runs, runErrorAnswer, writeSSE } from 'rxagent/http';
import { chatAgent } from './chat-agent.ts';

/** Where the chat's runs run: what the endpoints need. */
export interface ChatBackend {
  runs: Runs;
  /** Starts a run of `message` in `sessionId`; resolves with its id. */
  start(message: string, sessionId: string): Promise<string>;
  /** Rejects with `RunNotFoundError` / `ReplayExpiredError` before a stream starts. */
  check(runId: string, options: { lastEventId?: string }): Promise<void>;
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
  const agent = chatAgent(model, memorySessionStore());
  const runs = new RunRegistry({ graceMs: 120_000, retainMs: 300_000 });
  return {
    runs,
    start: async (message, sessionId) =>
      runs.start(({ approve, signal }) => agent.run(message, { sessionId, approve, signal })).id,
    check: async (runId, options) => runs.check(runId, options),
    close: async () => runs.close(),
  };
}

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
  const { runs } = backend;

  const routes = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const asset = assets[url.pathname];
    if (req.method === 'GET' && asset) {
      const body = await readFile(asset);
      res
        .writeHead(200, { 'content-type': types[asset.pathname.endsWith('.html') ? 'html' : 'js']! })
        .end(body);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/api/chat') {
      const { message, sessionId } = (await json(req)) as { message?: unknown; sessionId?: unknown };
      if (typeof message !== 'string' || typeof sessionId !== 'string' || !/^[\w-]{1,64}$/.test(sessionId)) {
        return send(res, 400, { error: { message: 'message and sessionId are required' } });
      }
      if (message.length > maxMessageLength)
        return send(res, 413, {
          error: { message: `A message holds at most ${maxMessageLength} characters` },
        });
      return send(res, 201, { runId: await backend.start(message, sessionId) });
    }
    const match = /^\/api\/runs\/([\w-]+)(?:\/(cancel|approvals\/([\w-]+)))?$/.exec(url.pathname);
    if (!match) return send(res, 404, { error: { message: 'Not found' } });
    const [, runId = '', action, toolCallId] = match;
    if (req.method === 'GET' && !action) {
      const lastEventId = req.headers['last-event-id'];
      const options = typeof lastEventId === 'string' ? { lastEventId } : {};
      // An unknown run is a 404 and an expired replay a 410, before the stream starts.
      await backend.check(runId, options);
      writeSSE(runs.attach(runId, options), res, { retryMs: 500, heartbeatMs: 10_000 });
      return;
    }
    if (req.method === 'POST' && action === 'cancel')
      return send(res, 200, { cancelled: await runs.cancel(runId) });
    if (req.method === 'POST' && toolCallId) {
      const { approved } = (await json(req)) as { approved?: unknown };
      // A call no longer waiting (decided, or its run ended) is a 409 from runErrorAnswer.
      await runs.decide(runId, toolCallId, { approved: approved === true });
      return send(res, 200, { decided: true });
    }
    send(res, 405, { error: { message: 'Method not allowed' } });
  };

  const server = createServer((req, res) => {
    routes(req, res).catch((error: unknown) => {
      const { status, body } = runErrorAnswer(error);
      if (!res.headersSent) send(res, status, body);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
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
