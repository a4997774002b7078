import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A Node request's method, URL and headers as a web `Request` without its body: enough to route,
 * check Host and Origin and authenticate before a byte of the body is read.
 */
export function nodeRequestHead(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const secure = (req.socket as { encrypted?: boolean } | null)?.encrypted === true;
  const scheme = secure ? 'https' : 'http';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `${scheme}://${req.headers.host ?? 'localhost'}`);
  } catch {
    // A Host header that is no host at all: the Host check refuses it, with the header itself.
    url = new URL(req.url ?? '/', `${scheme}://localhost`);
  }
  return new Request(url, { method: req.method ?? 'GET', headers });
}

/** Writes a whole (small, not streamed) web `Response` to a Node response. */
export async function writeNodeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  const body = await response.text();
  res.writeHead(response.status, headers).end(body);
}
