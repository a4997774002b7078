/**
 * Serves an agent's runs to browsers as server-sent events: POST /chat starts a run and streams it;
 * a client whose connection drops resumes at GET /runs/:id with Last-Event-ID; POST
 * /runs/:id/stop is the only thing that stops a run (a disconnect does not).
 *
 *   node --conditions=rxagent-source examples/stream-to-browser.ts     (PORT=0 picks a free port)
 *   curl -N -X POST http://127.0.0.1:3000/chat -d '{"message":"Hi"}'
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'rxagent';
import { RunRegistry, writeSSE } from 'rxagent/http';
import { scriptedModel } from 'rxagent/testing';

const model = scriptedModel([{ text: ['Hello ', 'from ', 'a ', 'resumable ', 'stream.'] }], {
  loop: true,
  delayMs: 50,
});
const agent = new Agent({ model });
const body = async (req: AsyncIterable<unknown>) => {
  let text = '';
  for await (const part of req) text += String(part);
  return JSON.parse(text) as { message: string };
};

const runs = new RunRegistry({ graceMs: 60_000 });
const server = createServer(async (req, res) => {
  const [, route = '', id = '', action] = (req.url ?? '/').split('/'); // /chat, /runs/:id, /runs/:id/stop
  if (req.method === 'POST' && route === 'chat') {
    const { message } = await body(req);
    const run = runs.start(({ approve, signal }) => agent.run(message, { approve, signal }));
    res.setHeader('content-location', `/runs/${run.id}`); // where fromSSE resumes after a drop
    return writeSSE(runs.attach(run.id), res);
  }
  if (req.method === 'POST' && action === 'stop')
    return res.end(JSON.stringify({ stopped: runs.cancel(id) }));
  writeSSE(runs.attach(id, { lastEventId: String(req.headers['last-event-id'] ?? '') }), res);
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once('SIGTERM', () => {
  runs.close();
  server.close();
});
