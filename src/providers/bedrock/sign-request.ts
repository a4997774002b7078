import type { SignatureV4 } from '@smithy/signature-v4';
import { RxAgentError } from '../../core/index.ts';
import type { OutgoingRequest } from '../../transport/index.ts';
import type { AwsCredentials } from './aws-credentials.ts';
import { loadAwsModules } from './load-aws-modules.ts';

/** A request as the signer sees it: every header it will be sent with, and its exact body. */
export interface SignableRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** What {@link sigV4Signer} needs. */
export interface SigV4SignerConfig {
  region: string;
  /** @default 'bedrock' */
  service?: string;
  /** Called for every request. */
  credentials: () => Promise<AwsCredentials>;
  /** The signing clock. @default () => new Date() */
  now?: () => Date;
}

/**
 * A function that signs the request with AWS Signature V4 (`@smithy/signature-v4`
 * with SHA-256 from `@aws-crypto/sha256-js`, both imported on first use): it adds `x-amz-date`, `x-amz-content-sha256`,
 * `x-amz-security-token` (with session credentials) and `authorization`, signing `host`,
 * `content-type` and every header given. Failures (e.g. a credentials function that throws) become
 * an `RxAgentError` coded `signing_failed` (not retried), unless already typed.
 * @example const headers = await sigV4Signer({ region: 'us-east-1', credentials })(request)
 */
export function sigV4Signer(
  config: SigV4SignerConfig,
): (request: SignableRequest) => Promise<Record<string, string>> {
  let signer: SignatureV4 | undefined;
  return async (request) => {
    if (signer === undefined) {
      // The AWS packages are optional peers, imported on first use (a typed error when missing).
      const aws = await loadAwsModules();
      signer = new aws.SignatureV4({
        service: config.service ?? 'bedrock',
        region: config.region,
        credentials: config.credentials,
        sha256: aws.Sha256,
      });
    }
    const url = new URL(request.url);
    const query: Record<string, string> = {};
    url.searchParams.forEach((value, key) => {
      query[key] = value;
    });
    try {
      const signed = await signer.sign(
        {
          method: request.method,
          protocol: url.protocol,
          hostname: url.hostname,
          ...(url.port === '' ? {} : { port: Number(url.port) }),
          path: url.pathname,
          query,
          headers: { ...request.headers, host: url.host },
          body: request.body,
        },
        { signingDate: config.now?.() ?? new Date() },
      );
      // fetch sends Host itself (the same value); it may not be set by hand.
      const { host: _host, ...headers } = signed.headers;
      return headers;
    } catch (cause) {
      if (RxAgentError.is(cause)) throw cause;
      throw new RxAgentError(`bedrock: signing the request failed: ${String(cause)}`, 'signing_failed', {
        cause,
      });
    }
  };
}

/** What {@link sigV4Sign} needs: a {@link SigV4SignerConfig} whose region is read per request. */
export interface SigV4SignConfig extends Omit<SigV4SignerConfig, 'region'> {
  /** Called for every request (so a missing region errors the request, not the factory). */
  region: () => string;
}

/**
 * The `sign` step of an `httpClient` that SigV4-signs each request just before it is sent: the
 * headers signed are exactly the ones it will be sent with (client, model and call headers merged),
 * the payload hash is over its exact body text, and the signature headers are set on it.
 * @example httpClient({ provider: 'bedrock', sign: sigV4Sign({ region: () => 'us-east-1', credentials }) })
 */
export function sigV4Sign(config: SigV4SignConfig): (request: OutgoingRequest) => Promise<void> {
  return async (request) => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const sign = sigV4Signer({ ...config, region: config.region() });
    const signed = await sign({ url: request.url, method: request.method, headers, body: request.body });
    for (const name of Object.keys(signed)) request.headers.set(name, signed[name] as string);
  };
}
