/**
 * Serves an agent's runs to browsers as server-sent events: POST /chat starts a run and streams it;
 * a client whose connection drops resumes at GET /runs/:id with Last-Event-ID; POST
 * /runs/:id/stop is the only thing that stops a run (a disconnect does not).
 *
 *   npx node --conditions=rxagent-source examples/stream-to-browser.ts     (PORT=0 picks a free port)
 *   curl -N -X POST http://127.0.0.1:3000/chat -d '{"message":"Hi"}'
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'rxagent';
import { RunRegistry, runErrorAnswer, writeSSE } from 'rxagent/http';
import { scriptedModel } from 'rxagent/testing';

const model = scriptedModel([{ text: ['Hello ', 'from ', 'a ', 'resumable ', 'stream.'] }], {
  loop: true,
  delayMs: 50,
});
const agent = new Agent({ model });
/** The request's `message`, or `undefined` when the body is not `{ "message": "..." }`. */
const messageOf = async (req: IncomingMessage): Promise<string | undefined> => {
  // Decoded once, whole: a chunk may end inside a multi-byte character.
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  try {
    const message: unknown = Reflect.get(
      JSON.parse(Buffer.concat(parts).toString('utf8')) as object,
      'message',
    );
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
};
const send = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const runs = new RunRegistry({ graceMs: 60_000 });
const route = async (req: IncomingMessage, res: ServerResponse) => {
  const [, path = '', id = '', action] = (req.url ?? '/').split('/'); // /chat, /runs/:id, /runs/:id/stop
  if (req.method === 'POST' && path === 'chat') {
    const message = await messageOf(req);
    if (message === undefined) return send(res, 400, { error: { message: 'Send {"message": "..."}' } });
    const run = runs.start(({ approve, signal }) => agent.run(message, { approve, signal }));
    res.setHeader('content-location', `/runs/${run.id}`); // where fromSSE resumes after a drop
    return writeSSE(runs.attach(run.id), res);
  }
  if (req.method === 'POST' && action === 'stop') return send(res, 200, { stopped: await runs.cancel(id) });
  const resume = { lastEventId: String(req.headers['last-event-id'] ?? '') };
  await runs.check(id, resume); // an unknown run is a 404, an expired replay a 410, rather than a stream
  writeSSE(runs.attach(id, resume), res);
};
const server = createServer((req, res) => {
  // RunNotFoundError → 404, TooManyRunsError → 503, anything else a 500 without its message.
  route(req, res).catch((error: unknown) => {
    const { status, body } = runErrorAnswer(error);
    if (res.headersSent) res.destroy();
    else send(res, status, body);
  });
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once('SIGTERM', () => {
  runs.close();
  server.close();
});
