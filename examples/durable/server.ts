/**
 * The app server of the durable example: starts runs on the queue and serves them over HTTP. It
 * runs no agent itself (the workers do), so any number of app servers can sit behind a load
 * balancer: a watcher, a decision or a stop may reach any of them.
 *
 *   npx node --conditions=rxagent-source examples/durable/server.ts      (PORT, default 3001)
 *
 *   POST /api/runs                      { message, sessionId? } → 201 { runId, sessionId }
 *   GET  /api/runs/:id                  the run's events as SSE (Last-Event-ID resumes)
 *   GET  /api/runs/:id/status           { status }
 *   POST /api/runs/:id/cancel           { cancelled }
 *   POST /api/runs/:id/approvals/:call  { approved, reason? } decides a parked approval
 *
 * Env: PORT, and the shared settings in app.ts (REDIS_URL, RXAGENT_PREFIX, ...).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidRequestError, InvalidSessionIdError, RunNotFoundError } from 'rxagent';
import { runErrorAnswer, writeSSE } from 'rxagent/http';
import { configFrom, openDurableApp } from './app.ts';

const app = openDurableApp(configFrom(process.env));
const { runs } = app;
/** The longest request body read, in bytes. */
const maxBodyBytes = 64 * 1024;

async function routes(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'POST' && url.pathname === '/api/runs') {
    const body = await json(req);
    if (body === tooLarge)
      return send(res, 413, { error: { message: `A request body holds at most ${maxBodyBytes} bytes` } });
    const { message, sessionId } = body as { message?: unknown; sessionId?: unknown };
    if (typeof message !== 'string' || (sessionId !== undefined && typeof sessionId !== 'string'))
      return send(res, 400, { error: { message: 'message (a string) is required; sessionId is a string' } });
    try {
      const started = await runs.start('shop', message, sessionId === undefined ? {} : { sessionId });
      return send(res, 201, started);
    } catch (error) {
      // Bad input (an invalid session id, an agent no worker runs) is a typed error; nothing was enqueued.
      if (InvalidRequestError.is(error) || InvalidSessionIdError.is(error))
        return send(res, 400, { error: { name: error.name, code: error.code, message: error.message } });
      throw error;
    }
  }
  const match = /^\/api\/runs\/([\w-]{1,128})(?:\/(status|cancel|approvals\/([\w-]{1,128})))?$/.exec(
    url.pathname,
  );
  if (!match) return send(res, 404, { error: { message: 'Not found' } });
  const [, runId = '', action, toolCallId] = match;
  if (req.method === 'GET' && !action) {
    const lastEventId = req.headers['last-event-id'];
    const options = typeof lastEventId === 'string' ? { lastEventId } : {};
    // An unknown run is a 404 and an expired replay a 410, before the stream starts.
    await runs.check(runId, options);
    writeSSE(runs.attach(runId, options), res, {
      retryMs: 500,
      heartbeatMs: 10_000,
    });
    return;
  }
  if (req.method === 'GET' && action === 'status') {
    const status = await runs.status(runId);
    return status === null
      ? send(res, 404, runErrorAnswer(new RunNotFoundError(runId)).body)
      : send(res, 200, { status });
  }
  if (req.method === 'POST' && action === 'cancel')
    return send(res, 200, { cancelled: await runs.cancel(runId) });
  if (req.method === 'POST' && toolCallId) {
    const { approved, reason } = (await json(req)) as { approved?: unknown; reason?: unknown };
    if (typeof approved !== 'boolean')
      return send(res, 400, { error: { message: 'approved (a boolean) is required' } });
    // A call that is not pending (decided already, never asked) is a 409 from runErrorAnswer.
    await runs.decide(runId, toolCallId, { approved, ...(typeof reason === 'string' ? { reason } : {}) });
    return send(res, 200, { decided: true });
  }
  send(res, 405, { error: { message: 'Method not allowed' } });
}

const server = createServer((req, res) => {
  routes(req, res).catch((error: unknown) => {
    const { status, body } = runErrorAnswer(error);
    if (status === 500) console.error(error);
    if (!res.headersSent) send(res, status, body);
    else res.destroy();
  });
});
server.listen(Number(process.env.PORT ?? 3001), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`durable app server ${process.pid}: http://127.0.0.1:${port}`);
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => void app.close().finally(() => process.exit(0)));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** What `json` answers for a body over `maxBodyBytes`. */
const tooLarge = Symbol('too large');

/** The request body as JSON (`{}` when it is not JSON), or `tooLarge` past `maxBodyBytes`. */
async function json(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > maxBodyBytes) return tooLarge;
    parts.push(part);
  }
  try {
    return JSON.parse(Buffer.concat(parts).toString('utf8'));
  } catch {
    return {};
  }
}
