import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { RxAgentError } from '../../core/index.ts';
import type { PreparedRequest } from '../../transport/index.ts';
import type { AwsCredentials } from './aws-credentials.ts';

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
 * An `httpStream` `prepare` hook that signs the request with AWS Signature V4 (`@smithy/signature-v4`
 * with SHA-256 from `@aws-crypto/sha256-js`): it adds `x-amz-date`, `x-amz-content-sha256`,
 * `x-amz-security-token` (with session credentials) and `authorization`, signing `host`,
 * `content-type` and every header given. Failures (e.g. a credentials function that throws) become
 * an `RxAgentError` coded `signing_failed` (not retried), unless already typed.
 * @example httpStream({ ...req, prepare: sigV4Signer({ region: 'us-east-1', credentials }) })
 */
export function sigV4Signer(
  config: SigV4SignerConfig,
): (request: PreparedRequest) => Promise<Record<string, string>> {
  const signer = new SignatureV4({
    service: config.service ?? 'bedrock',
    region: config.region,
    credentials: config.credentials,
    sha256: Sha256,
  });
  return async (request) => {
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
