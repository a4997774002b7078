import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyOf, type Listening, listen } from './listen.ts';

/** Serves a fetch-style handler (`Request` in, `Response` out) on 127.0.0.1 with node:http. */
export function serveFetch(handler: (request: Request) => Promise<Response>): Promise<Listening> {
  return listen((req, res) => {
    void respond(handler, req, res).catch(() => res.destroy());
  });
}

async function respond(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
) {
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : await bodyOf(req);
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method,
    headers,
    signal: controller.signal,
    ...(body === undefined ? {} : { body }),
  });
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  res.end();
}
