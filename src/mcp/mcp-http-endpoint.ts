import type { IncomingMessage, ServerResponse } from 'node:http';
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
import { header, jsonError, requestView } from './http-request-view.ts';
import { LegacySessions, type LegacySessionLimits } from './legacy-sessions.ts';
import { type McpListNotifier, listNotifier } from './list-notifier.ts';
import { bearerChallenge, type McpServeAuth, serveResourceMetadata } from './protected-resource.ts';
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

type Guard = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What the endpoint is built from. */
export interface McpHttpEndpointSetup {
  factory: (era: 'legacy' | 'modern') => McpServer;
  options: McpHttpServeOptions;
  auth: McpServeAuth | undefined;
  onError: (error: Error) => void;
  syncTools: (server: McpServer) => void;
}

/**
 * The Streamable HTTP endpoint as a Node request handler, routed by protocol era: 2026-07-28
 * requests go to the SDK's `createMcpHandler` (one server per request), 2025-era traffic to
 * sessions (`LegacySessions`). Host and Origin are checked for both eras before anything else; with
 * `auth`, the protected-resource metadata is served and a request without an actor gets 401 with
 * the `resource_metadata` challenge.
 */
export class McpHttpEndpoint {
  readonly #sessions: LegacySessions;
  readonly #handler: McpHttpHandler;
  /** Tells every 2025 session and every open 2026 `subscriptions/listen` stream. */
  readonly notify: McpListNotifier;
  /** The path it serves. */
  readonly path: string;
  readonly #maxBodyBytes: number;
  readonly #guards: Guard[];
  readonly #auth: McpServeAuth | undefined;
  readonly #modern: ReturnType<typeof toNodeHandler>;
  readonly #onError: (error: Error) => void;

  constructor({ factory, options, auth, onError, syncTools }: McpHttpEndpointSetup) {
    this.#sessions = new LegacySessions(() => factory('legacy'), options);
    this.path = options.path ?? '/mcp';
    this.#maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.#auth = auth;
    this.#onError = onError;
    this.#guards = [
      options.allowedHosts ? hostHeaderValidation([...options.allowedHosts]) : localhostHostValidation(),
      options.allowedOrigins ? originValidation([...options.allowedOrigins]) : localhostOriginValidation(),
    ];
    this.#handler = createMcpHandler((ctx) => factory(ctx.era), { onerror: onError });
    this.#modern = toNodeHandler(this.#handler);
    this.notify = listNotifier(() => this.#sessions.servers(), this.#handler.notify, syncTools);
  }

  /**
   * Handles a request to the endpoint's path (or its metadata); any other path goes to `next`, or
   * is answered 404 without one. Never rejects: a failure is a 500 and goes to `onError`.
   */
  handle = (req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void> =>
    this.#handle(req, res, next).catch((error: unknown) => {
      this.#onError(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) jsonError(res, 500, -32603, 'Internal server error');
      else res.end();
    });

  /** Ends every session. */
  async close(): Promise<void> {
    await this.#sessions.close();
    await this.#handler.close();
  }

  async #handle(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, next?: () => void) {
    if (this.#auth && serveResourceMetadata(this.#auth, req, res, this.path)) return;
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== this.path)
      return next ? next() : jsonError(res, 404, -32000, 'Not found');
    for (const guard of this.#guards) if (!guard(req, res)) return;
    if (this.#auth) {
      const view = requestView(req);
      const actor = await this.#auth.authenticate(view);
      if (!actor) {
        const challenge = bearerChallenge(this.#auth, req, this.path);
        return jsonError(res, 401, -32001, 'Unauthorized', { 'www-authenticate': challenge });
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
