import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  hostHeaderValidation,
  localhostHostValidation,
  localhostOriginValidation,
  type NodeIncomingMessageLike,
  originValidation,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  classifyInboundRequest,
  type InboundHttpRequest,
  createMcpHandler,
  type McpHttpHandler,
  type McpServer,
} from '@modelcontextprotocol/server';
import type { Actor } from '../security/index.ts';
import { type McpListNotifier, listNotifier } from './list-notifier.ts';
import { LegacySessions, type LegacySessionLimits } from './legacy-sessions.ts';
import { readJsonBody } from './read-json-body.ts';
import { authInfoFor } from './served-actor.ts';

/** Where and how the HTTP endpoint listens. */
export interface McpHttpServeOptions extends LegacySessionLimits {
  /** @default '127.0.0.1' */
  host?: string;
  /** `0` picks a free port. @default 0 */
  port?: number;
  /** @default '/mcp' */
  path?: string;
  /** Hostnames an `Origin` header may name. @default localhost names only */
  allowedOrigins?: readonly string[];
  /** Hostnames the `Host` header may name (DNS-rebinding protection). @default localhost names only */
  allowedHosts?: readonly string[];
  /** The largest request body; a larger one is answered 413 and its connection closed. @default 4 MiB */
  maxBodyBytes?: number;
}

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

type Guard = (req: IncomingMessage, res: ServerResponse) => boolean;

function jsonError(
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

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function requestView(req: IncomingMessage): McpHttpRequest {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')?.[1];
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers, bearerToken: bearer };
}

/**
 * The Streamable HTTP endpoint, routed by protocol era: 2026-07-28 requests go to the SDK's
 * `createMcpHandler` (one server per request), 2025-era traffic to a sessionful
 * `NodeStreamableHTTPServerTransport` with an event store (`Mcp-Session-Id`, 404 for an unknown
 * session, `DELETE` ends one). Host and Origin are checked for both eras before anything else.
 */
export class McpHttpServer {
  readonly #server: Server;
  readonly #sessions: LegacySessions;
  readonly #handler: McpHttpHandler;
  /** Tells every 2025 session and every open 2026 `subscriptions/listen` stream. */
  readonly notify: McpListNotifier;
  readonly #path: string;
  readonly #maxBodyBytes: number;
  readonly #guards: Guard[];
  readonly #authenticate: McpAuthenticate | undefined;
  readonly #modern: ReturnType<typeof toNodeHandler>;
  readonly #onError: (error: Error) => void;

  constructor(
    factory: (era: 'legacy' | 'modern') => McpServer,
    options: McpHttpServeOptions,
    authenticate: McpAuthenticate | undefined,
    onError: (error: Error) => void,
    syncTools: (server: McpServer) => void = () => undefined,
  ) {
    this.#sessions = new LegacySessions(() => factory('legacy'), options);
    this.#path = options.path ?? '/mcp';
    this.#maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.#authenticate = authenticate;
    this.#onError = onError;
    this.#guards = [
      options.allowedHosts ? hostHeaderValidation([...options.allowedHosts]) : localhostHostValidation(),
      options.allowedOrigins ? originValidation([...options.allowedOrigins]) : localhostOriginValidation(),
    ];
    this.#handler = createMcpHandler((ctx) => factory(ctx.era), { onerror: onError });
    this.#modern = toNodeHandler(this.#handler);
    this.notify = listNotifier(() => this.#sessions.servers(), this.#handler.notify, syncTools);
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((error: unknown) => {
        this.#onError(error instanceof Error ? error : new Error(String(error)));
        if (!res.headersSent) jsonError(res, 500, -32603, 'Internal server error');
        else res.end();
      });
    });
  }

  /** Starts listening; resolves with the endpoint's URL. */
  listen(host: string, port: number): Promise<string> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        const address = this.#server.address() as AddressInfo;
        const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        resolve(`http://${hostname}:${address.port}${this.#path}`);
      });
    });
  }

  /** Ends every session and stops listening. */
  async close(): Promise<void> {
    await this.#sessions.close();
    await this.#handler.close();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== this.#path)
      return jsonError(res, 404, -32000, 'Not found');
    for (const guard of this.#guards) if (!guard(req, res)) return;
    if (this.#authenticate) {
      const view = requestView(req);
      const actor = await this.#authenticate(view);
      if (!actor) {
        res.setHeader('www-authenticate', 'Bearer');
        return jsonError(res, 401, -32001, 'Unauthorized');
      }
      req.auth = authInfoFor(actor, view.bearerToken ?? '');
    }
    const body = req.method === 'POST' ? await readJsonBody(req, this.#maxBodyBytes) : undefined;
    if (body?.type === 'too-large') {
      // The rest of the body is never read: the connection cannot carry another request.
      const limit = `${this.#maxBodyBytes} bytes`;
      return jsonError(res, 413, -32600, `The request body is over ${limit}`, { connection: 'close' });
    }
    if (body?.type === 'invalid') return jsonError(res, 400, -32700, 'Parse error: the body is not JSON');
    const parsed = body?.value;
    // JSON-RPC batches left MCP in 2025-06-18; neither era takes them.
    if (Array.isArray(parsed))
      return jsonError(res, 400, -32600, 'Invalid Request: batching is not supported');
    const inbound: InboundHttpRequest = { httpMethod: req.method ?? 'GET', body: parsed };
    const protocolVersion = header(req.headers['mcp-protocol-version']);
    const mcpMethod = header(req.headers['mcp-method']);
    if (protocolVersion !== undefined) inbound.protocolVersionHeader = protocolVersion;
    if (mcpMethod !== undefined) inbound.mcpMethodHeader = mcpMethod;
    if (classifyInboundRequest(inbound).kind !== 'legacy')
      return this.#modern(req as NodeIncomingMessageLike, res, parsed);
    await this.#sessions.handle(req, res, parsed, (status, code, message) =>
      jsonError(res, status, code, message),
    );
  }
}
