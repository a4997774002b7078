import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actor } from '../security/index.ts';

/** What `authenticate` sees of a request. */
export interface McpHttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  /** The `Authorization: Bearer` token, if any. */
  readonly bearerToken: string | undefined;
}

/** Authentication of every HTTP request: its actor, or `null` to answer 401. */
export type McpAuthenticate = (request: McpHttpRequest) => Actor | null | Promise<Actor | null>;

/** A Node request as `authenticate` sees it. */
export function requestView(req: IncomingMessage): McpHttpRequest {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')?.[1];
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers, bearerToken: bearer };
}

/** Answers with a JSON-RPC error body. */
export function jsonError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The first value of a header. */
export function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
