import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

/** A fetch-style server: `(request: Request) => Promise<Response>`, as Deno, Bun and Workers run one. */
export type FetchHandler = (request: Request) => Promise<Response>;

async function toResponse(handler: FetchHandler, req: IncomingMessage, res: ServerResponse) {
  const controller = new AbortController();
  res.once('close', () => controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return void res.end();
  const body = Readable.fromWeb(response.body as never);
  res.once('close', () => body.destroy());
  body.on('error', () => res.destroy());
  body.pipe(res);
}

/**
 * Serves `handler` on 127.0.0.1 the way a fetch-native runtime does (`Deno.serve(handler)`): each
 * Node request becomes a web `Request` with a streamed body and an abort signal, and the web
 * `Response` is streamed back. Nothing of the handler sees Node.
 */
export async function serveFetch(handler: FetchHandler): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    toResponse(handler, req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
