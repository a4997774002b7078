import {
  auth,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  type FetchLike,
  isStrictScopeSuperset,
  type OAuthClientProvider,
  UnauthorizedError,
} from '@modelcontextprotocol/client';

/** What the authorization server sent back to the redirect URL. */
export interface McpAuthorizationCode {
  code: string;
  /** The `iss` parameter of the redirect, when the server sends one (RFC 9207). */
  iss?: string;
}

/** An interactive OAuth login for an HTTP server (see `McpHttpOptions.oauth`). */
export interface McpOAuthOptions {
  /** Stores the client's registration, tokens and PKCE verifier; opens the authorization URL. */
  provider: OAuthClientProvider;
  /**
   * Waits for the redirect after `provider.redirectToAuthorization(url)` (a local callback server,
   * a pasted code) and resolves with its code: the login is then finished (`finishAuth`) and the
   * request sent again.
   */
  authorizationCode: () => Promise<McpAuthorizationCode> | McpAuthorizationCode;
}

/**
 * Authorizes after a 401 (or a 403 asking for more scope, RFC 6750): discovery from the challenge's
 * `resource_metadata`, registration, the authorization redirect, the code exchange (the SDK's
 * `auth()` does each step). A 403 asks for the union of the scopes held and those challenged.
 */
async function authorize(response: Response, oauth: McpOAuthOptions, next: FetchLike, serverUrl: URL) {
  const { provider } = oauth;
  const { resourceMetadataUrl, scope: challenged } = extractWWWAuthenticateParams(response);
  const previous = await provider.tokens();
  const scope = response.status === 403 ? computeScopeUnion(previous?.scope, challenged) : challenged;
  if (response.status === 401) await provider.invalidateCredentials?.('discovery');
  const common = {
    serverUrl,
    ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
    ...(scope ? { scope } : {}),
    fetchFn: next,
  };
  let result = await auth(provider, {
    ...common,
    forceReauthorization: isStrictScopeSuperset(scope, previous?.scope),
  });
  if (result === 'REDIRECT') {
    const { code, iss } = await oauth.authorizationCode();
    result = await auth(provider, { ...common, authorizationCode: code, ...(iss ? { iss } : {}) });
  }
  if (result !== 'AUTHORIZED') throw new UnauthorizedError(`Authorization ended with ${result}`);
}

/**
 * A fetch for the MCP HTTP transports that sends the provider's bearer token and, on a 401 or a
 * 403 (step-up), completes the OAuth login and sends the request once more. Used by `connectMcp`
 * when `oauth` is given.
 */
export function oauthFetch(oauth: McpOAuthOptions, serverUrl: URL, next: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    const send = async () => {
      const headers = new Headers(init?.headers);
      const tokens = await oauth.provider.tokens();
      if (tokens) headers.set('authorization', `Bearer ${tokens.access_token}`);
      return next(input, { ...init, headers });
    };
    let response = await send();
    if (response.status === 401 || response.status === 403) {
      await authorize(response, oauth, next, serverUrl);
      response = await send();
    }
    if (response.status === 401 || response.status === 403)
      throw new UnauthorizedError(`Still unauthorized at ${String(input)}`);
    return response;
  };
}
