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

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The endpoint's public URL: configured, or the one this request reached (its Host is validated). */
function resourceOf(auth: McpServeAuth, request: Request, path: string): URL {
  return auth.resource !== undefined ? new URL(auth.resource) : new URL(path, request.url);
}

/** Whether `pathname` is where the endpoint at `path` serves its protected-resource metadata. */
export function isResourceMetadataPath(pathname: string, path: string): boolean {
  return pathname === WELL_KNOWN || pathname === `${WELL_KNOWN}${path}`;
}

/**
 * RFC 9728 Protected Resource Metadata, served at `/.well-known/oauth-protected-resource` and
 * `/.well-known/oauth-protected-resource<path>` (GET; another method is 405).
 */
export function resourceMetadataResponse(auth: McpServeAuth, request: Request, path: string): Response {
  if (request.method !== 'GET') return new Response(null, { status: 405, headers: { allow: 'GET' } });
  const document = {
    resource: resourceOf(auth, request, path).href,
    authorization_servers: (auth.authorizationServers ?? []).map((server) => new URL(server).href),
    bearer_methods_supported: ['header'],
    ...(auth.scopes ? { scopes_supported: [...auth.scopes] } : {}),
    ...(auth.resourceName ? { resource_name: auth.resourceName } : {}),
  };
  return Response.json(document, { headers: { 'access-control-allow-origin': '*' } });
}

/** The `WWW-Authenticate` challenge of a 401: where the metadata is, and the scopes to ask for. */
export function bearerChallenge(auth: McpServeAuth, request: Request, path: string): string {
  const metadata = getOAuthProtectedResourceMetadataUrl(resourceOf(auth, request, path));
  const scope = auth.scopes?.length ? `, scope="${auth.scopes.join(' ')}"` : '';
  return `Bearer resource_metadata="${metadata}"${scope}`;
}
