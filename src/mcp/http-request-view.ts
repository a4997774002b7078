import type { Actor } from '../security/index.ts';

/** What `authenticate` sees of a request. */
export interface McpHttpRequest {
  readonly method: string;
  /** The path and query string (e.g. `/mcp?x=1`). */
  readonly url: string;
  readonly headers: Headers;
  /** The `Authorization: Bearer` token, if any. */
  readonly bearerToken: string | undefined;
}

/** Authentication of every HTTP request: its actor, or `null` to answer 401. */
export type McpAuthenticate = (request: McpHttpRequest) => Actor | null | Promise<Actor | null>;

/** A request as `authenticate` sees it. */
export function requestView(request: Request): McpHttpRequest {
  const { pathname, search } = new URL(request.url);
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  return {
    method: request.method,
    url: `${pathname}${search}`,
    headers: request.headers,
    bearerToken: bearer,
  };
}

/** A response with a JSON-RPC error body. */
export function jsonErrorResponse(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
