import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';
import type { McpAuthenticate } from './http-request-view.ts';

/** MCP authorization of a served HTTP endpoint: who may call, and where clients get a token. */
export interface McpServeAuth {
  /** Authenticates every request: its actor, or `null` to answer 401 with the challenge. */
  authenticate: McpAuthenticate;
  /** The authorization servers (issuer URLs) whose tokens this endpoint accepts. */
  authorizationServers?: readonly (string | URL)[];
  /** Scopes this endpoint understands (`scopes_supported`, and `scope` in the 401 challenge). */
  scopes?: readonly string[];
  /** The endpoint's public URL (behind a proxy). @default the URL it is reached at */
  resource?: string | URL;
  /** A name for people, as `resource_name`. */
  resourceName?: string;
}

/** The endpoint's public URL: configured, or the one this request reached (its Host is validated). */
function resourceOf(auth: McpServeAuth, req: IncomingMessage, path: string): URL {
  if (auth.resource !== undefined) return new URL(auth.resource);
  const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
  return new URL(path, `${secure ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`);
}

/**
 * Serves RFC 9728 Protected Resource Metadata at `/.well-known/oauth-protected-resource` and
 * `/.well-known/oauth-protected-resource<path>` (GET). Returns whether it answered the request.
 */
export function serveResourceMetadata(
  auth: McpServeAuth,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): boolean {
  const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
  const wellKnown = '/.well-known/oauth-protected-resource';
  if (pathname !== wellKnown && pathname !== `${wellKnown}${path}`) return false;
  if (req.method !== 'GET') {
    res.writeHead(405, { allow: 'GET' }).end();
    return true;
  }
  const document = {
    resource: resourceOf(auth, req, path).href,
    authorization_servers: (auth.authorizationServers ?? []).map((server) => new URL(server).href),
    bearer_methods_supported: ['header'],
    ...(auth.scopes ? { scopes_supported: [...auth.scopes] } : {}),
    ...(auth.resourceName ? { resource_name: auth.resourceName } : {}),
  };
  res
    .writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
    .end(JSON.stringify(document));
  return true;
}

/** The `WWW-Authenticate` challenge of a 401: where the metadata is, and the scopes to ask for. */
export function bearerChallenge(auth: McpServeAuth, req: IncomingMessage, path: string): string {
  const metadata = getOAuthProtectedResourceMetadataUrl(resourceOf(auth, req, path));
  const scope = auth.scopes?.length ? `, scope="${auth.scopes.join(' ')}"` : '';
  return `Bearer resource_metadata="${metadata}"${scope}`;
}
