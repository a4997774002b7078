import type { IncomingMessage, ServerResponse } from 'node:http';
import { type NodeIncomingMessageLike, toNodeHandler } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  classifyInboundRequest,
  createMcpHandler,
  type InboundHttpRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type McpHttpHandler,
  type McpServer,
  originValidationResponse,
  validateHostHeader,
} from '@modelcontextprotocol/server';
import { type JsonBody, readJsonBody } from '../http/read-json-body.ts';
import { nodeStreamedResponse } from './node-streamed-response.ts';
import { jsonErrorResponse, requestView } from './http-request-view.ts';
import { LegacySessions, type LegacySessionLimits } from './legacy-sessions.ts';
import { type McpListNotifier, listNotifier } from './list-notifier.ts';
import { nodeRequestHead, writeNodeResponse } from './node-request-head.ts';
import {
  bearerChallenge,
  isResourceMetadataPath,
  type McpServeAuth,
  resourceMetadataResponse,
} from './protected-resource.ts';
import { readNodeJsonBody } from './read-node-json-body.ts';
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
  /**
   * The longest a request body may take to arrive; a slower one (a client that sends a byte now and
   * then) is answered 408 and its connection closed. @default 30_000
   */
  bodyTimeoutMs?: number;
}

/** What the endpoint is built from. */
export interface McpHttpEndpointSetup {
  factory: (era: 'legacy' | 'modern') => McpServer;
  options: McpHttpServeOptions;
  auth: McpServeAuth | undefined;
  onError: (error: Error) => void;
  syncTools: (server: McpServer) => void;
}

/** A request let in: who made it (without `auth`, nobody in particular). */
type Admitted = { authInfo: AuthInfo | undefined };

/**
 * The Streamable HTTP endpoint, with a web face (`fetch(request)`, for Deno, Bun, Hono) and a Node face (`handle(req, res, next?)`) over one mechanism: Host and Origin
 * checked for both eras before anything else; with `auth`, the protected-resource metadata served
 * and a request without an actor answered 401 with the `resource_metadata` challenge; the body read
 * within `maxBodyBytes`; then 2026-07-28 requests go to the SDK's `createMcpHandler` (one server per
 * request) and 2025-era traffic to sessions (`LegacySessions`: owned, capped, expiring).
 */
export class McpHttpEndpoint {
  readonly #sessions: LegacySessions;
  readonly #handler: McpHttpHandler;
  /** Tells every 2025 session and every open 2026 `subscriptions/listen` stream. */
  readonly notify: McpListNotifier;
  /** The path it serves. */
  readonly path: string;
  readonly #maxBodyBytes: number;
  readonly #bodyTimeoutMs: number;
  readonly #allowedHosts: string[];
  readonly #allowedOrigins: string[];
  readonly #auth: McpServeAuth | undefined;
  readonly #onError: (error: Error) => void;

  constructor({ factory, options, auth, onError, syncTools }: McpHttpEndpointSetup) {
    this.#sessions = new LegacySessions(() => factory('legacy'), options);
    this.path = options.path ?? '/mcp';
    this.#maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.#bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
    this.#auth = auth;
    this.#onError = onError;
    this.#allowedHosts = options.allowedHosts ? [...options.allowedHosts] : localhostAllowedHostnames();
    this.#allowedOrigins = options.allowedOrigins ? [...options.allowedOrigins] : localhostAllowedOrigins();
    this.#handler = createMcpHandler((ctx) => factory(ctx.era), { onerror: onError });
    this.notify = listNotifier(() => this.#sessions.servers(), this.#handler.notify, syncTools);
  }

  /**
   * Answers a web request to the endpoint's path (or its metadata); any other path is 404. Never
   * rejects: a failure is a 500 and goes to `onError`.
   * @example Deno.serve(endpoint.fetch); Bun.serve({ fetch: endpoint.fetch }); export default { fetch: endpoint.fetch };
   */
  fetch = async (request: Request): Promise<Response> => {
    try {
      const admitted = await this.#admit(request);
      if (admitted instanceof Response) return admitted;
      const body =
        request.method === 'POST'
          ? await readJsonBody(request, this.#maxBodyBytes, this.#bodyTimeoutMs)
          : undefined;
      return (body && this.#refused(body)) ?? (await this.#dispatch(request, body, admitted.authInfo));
    } catch (error) {
      this.#report(error);
      return jsonErrorResponse(500, -32603, 'Internal server error');
    }
  };

  /**
   * Handles a Node request to the endpoint's path (or its metadata); any other path goes to `next`,
   * or is answered 404 without one. Never rejects: a failure is a 500 and goes to `onError`.
   */
  handle = (req: IncomingMessage, res: ServerResponse, next?: () => void): Promise<void> =>
    this.#handleNode(req, res, next).catch((error: unknown) => {
      this.#report(error);
      if (!res.headersSent)
        void writeNodeResponse(res, jsonErrorResponse(500, -32603, 'Internal server error'));
      else res.end();
    });

  /** Ends every session. */
  async close(): Promise<void> {
    await this.#sessions.close();
    await this.#handler.close();
  }

  async #handleNode(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, next?: () => void) {
    const head = nodeRequestHead(req);
    if (next && !this.#serves(new URL(head.url).pathname)) return next();
    const admitted = await this.#admit(head);
    if (admitted instanceof Response) return writeNodeResponse(res, admitted);
    const body =
      req.method === 'POST'
        ? await readNodeJsonBody(req, this.#maxBodyBytes, this.#bodyTimeoutMs)
        : undefined;
    // The rest of an over-limit body is never read: its 413 closes the connection.
    const refused = body && this.#refused(body);
    if (refused) return writeNodeResponse(res, refused);
    if (admitted.authInfo) req.auth = admitted.authInfo;
    const parsed = body?.kind === 'json' ? body.value : undefined;
    const dispatch = async (request: Request) =>
      nodeStreamedResponse(await this.#dispatch(request, body, admitted.authInfo), res);
    const write = toNodeHandler({ fetch: dispatch }, { onerror: (error) => this.#report(error) });
    await write(req as NodeIncomingMessageLike, res, parsed);
  }

  #serves(pathname: string): boolean {
    return (
      pathname === this.path || (this.#auth !== undefined && isResourceMetadataPath(pathname, this.path))
    );
  }

  /** Everything decided before the body is read: route, metadata, Host and Origin, authentication. */
  async #admit(request: Request): Promise<Response | Admitted> {
    const { pathname, host: urlHost } = new URL(request.url);
    const metadata = this.#auth !== undefined && isResourceMetadataPath(pathname, this.path);
    if (!metadata && pathname !== this.path) return jsonErrorResponse(404, -32000, 'Not found');
    // A fetch runtime may leave `Host` out of the headers; its URL was built from it.
    const host = validateHostHeader(request.headers.get('host') ?? urlHost, this.#allowedHosts);
    if (!host.ok) return jsonErrorResponse(403, -32000, host.message);
    // The metadata names the resource by the Host it was reached at (without `auth.resource`): only
    // an allowed one. It is for any origin (browsers read it cross-origin), so no Origin check.
    if (metadata && this.#auth) return resourceMetadataResponse(this.#auth, request, this.path);
    const refused = originValidationResponse(request, this.#allowedOrigins);
    if (refused) return refused;
    if (!this.#auth) return { authInfo: undefined };
    const view = requestView(request);
    const actor = await this.#auth.authenticate(view);
    if (actor) return { authInfo: authInfoFor(actor, view.bearerToken ?? '') };
    const challenge = bearerChallenge(this.#auth, request, this.path);
    return jsonErrorResponse(401, -32001, 'Unauthorized', { 'www-authenticate': challenge });
  }

  /** The answer to a body that cannot be served, if it cannot. */
  #refused(body: JsonBody): Response | undefined {
    if (body.kind === 'too-large') {
      const message = `The request body is over ${body.maxBytes} bytes`;
      return jsonErrorResponse(413, -32600, message, { connection: 'close' });
    }
    if (body.kind === 'too-slow') {
      const message = `The request body took longer than ${body.timeoutMs} ms to arrive`;
      return jsonErrorResponse(408, -32600, message, { connection: 'close' });
    }
    if (body.kind === 'invalid') return jsonErrorResponse(400, -32700, 'Parse error: the body is not JSON');
    // JSON-RPC batches left MCP in 2025-06-18; neither era takes them.
    if (Array.isArray(body.value))
      return jsonErrorResponse(400, -32600, 'Invalid Request: batching is not supported');
    return undefined;
  }

  /** Routes an admitted request by protocol era. */
  #dispatch(request: Request, body: JsonBody | undefined, authInfo: AuthInfo | undefined): Promise<Response> {
    const parsed = body?.kind === 'json' ? body.value : undefined;
    const inbound: InboundHttpRequest = { httpMethod: request.method, body: parsed };
    const protocolVersion = request.headers.get('mcp-protocol-version');
    const mcpMethod = request.headers.get('mcp-method');
    if (protocolVersion !== null) inbound.protocolVersionHeader = protocolVersion;
    if (mcpMethod !== null) inbound.mcpMethodHeader = mcpMethod;
    if (classifyInboundRequest(inbound).kind !== 'legacy') {
      return this.#handler.fetch(request, { parsedBody: parsed, ...(authInfo ? { authInfo } : {}) });
    }
    return this.#sessions.handle(request, parsed, authInfo);
  }

  #report(error: unknown): void {
    this.#onError(error instanceof Error ? error : new Error(String(error)));
  }
}
