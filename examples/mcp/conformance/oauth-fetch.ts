/**
 * OAuth for the conformance client: an in-memory `OAuthClientProvider` that completes the
 * authorization redirect itself (the suite's authorization server answers at once), and a fetch
 * wrapper that answers 401/403 with the SDK's `auth()` and retries once.
 */
import {
  auth,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  type FetchLike,
  isStrictScopeSuperset,
  type OAuthClientInformationFull,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
  UnauthorizedError,
} from '@modelcontextprotocol/client';

const REDIRECT = 'http://localhost:3000/callback';

/** Keeps everything in memory; "redirects" by fetching the authorization URL without following it. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  readonly clientMetadata: OAuthClientMetadata;
  readonly clientMetadataUrl?: string;
  #client: OAuthClientInformationFull | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  code: string | undefined;
  iss: string | undefined;

  constructor(clientName: string, clientMetadataUrl?: string) {
    this.clientMetadata = { client_name: clientName, redirect_uris: [REDIRECT] };
    if (clientMetadataUrl !== undefined) this.clientMetadataUrl = clientMetadataUrl;
  }

  get redirectUrl(): string {
    return REDIRECT;
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(info: OAuthClientInformationFull): void {
    this.#client = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }
  discoveryState() {
    return this.#discovery;
  }
  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }
  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error('No code verifier saved');
    return this.#verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.#client = undefined;
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined;
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }
  async redirectToAuthorization(url: URL): Promise<void> {
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location) throw new Error(`No redirect from ${url.toString()}`);
    const back = new URL(location);
    const code = back.searchParams.get('code');
    if (!code) throw new Error('No authorization code in the redirect');
    this.code = code;
    this.iss = back.searchParams.get('iss') ?? undefined;
  }
}

async function authorize(response: Response, provider: MemoryOAuthProvider, next: FetchLike, serverUrl: URL) {
  const { resourceMetadataUrl, scope: challenged } = extractWWWAuthenticateParams(response);
  const previous = await provider.tokens();
  const scope = response.status === 403 ? computeScopeUnion(previous?.scope, challenged) : challenged;
  if (response.status === 401) provider.invalidateCredentials('discovery');
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
    if (provider.code === undefined) throw new UnauthorizedError('No authorization code');
    result = await auth(provider, {
      ...common,
      authorizationCode: provider.code,
      ...(provider.iss ? { iss: provider.iss } : {}),
    });
  }
  if (result !== 'AUTHORIZED') throw new UnauthorizedError(`Authorization ended with ${result}`);
}

/** A fetch that sends the bearer token, and on 401/403 authorizes and retries once. */
export function oauthFetch(
  provider: MemoryOAuthProvider,
  serverUrl: URL,
  next: FetchLike = fetch,
): FetchLike {
  return async (input, init) => {
    const send = async () => {
      const headers = new Headers(init?.headers);
      const tokens = await provider.tokens();
      if (tokens) headers.set('authorization', `Bearer ${tokens.access_token}`);
      return next(input, { ...init, headers });
    };
    let response = await send();
    if (response.status === 401 || response.status === 403) {
      await authorize(response, provider, next, serverUrl);
      response = await send();
    }
    if (response.status === 401 || response.status === 403)
      throw new UnauthorizedError(`Still unauthorized at ${String(input)}`);
    return response;
  };
}
