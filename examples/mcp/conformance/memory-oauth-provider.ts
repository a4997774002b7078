/**
 * The conformance client's `OAuthClientProvider`: everything in memory, and the "browser" is a
 * fetch of the authorization URL (the suite's authorization server redirects at once). The login
 * itself (401/403, discovery, code exchange, retry) is the library's: `connectMcp({ oauth })`.
 */
import type {
  OAuthClientInformationFull,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import type { McpAuthorizationCode } from 'rxagent/mcp';

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

  /** The code the redirect carried: what a real host's callback server would receive. */
  authorizationCode(): McpAuthorizationCode {
    if (this.code === undefined) throw new Error('No authorization code');
    return { code: this.code, ...(this.iss ? { iss: this.iss } : {}) };
  }
}
