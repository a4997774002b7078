import { RxAgentError } from '../../core/index.ts';
import { env } from '../shared/index.ts';

/** AWS credentials for SigV4 signing. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Credentials, or a function that fetches them (called before every request, so it may refresh). */
export type AwsCredentialsInput = AwsCredentials | (() => AwsCredentials | Promise<AwsCredentials>);

/**
 * Resolves credentials: the given ones (or what the given function returns), else the standard
 * environment variables `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`,
 * read at request time. Without any, rejects with an `RxAgentError` coded `missing_credentials`.
 */
export async function resolveAwsCredentials(input: AwsCredentialsInput | undefined): Promise<AwsCredentials> {
  const given = typeof input === 'function' ? await input() : input;
  if (given !== undefined) return given;
  const accessKeyId = env('AWS_ACCESS_KEY_ID');
  const secretAccessKey = env('AWS_SECRET_ACCESS_KEY');
  if (accessKeyId === undefined || secretAccessKey === undefined) {
    throw new RxAgentError(
      'bedrock: no AWS credentials: pass `credentials` or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
      'missing_credentials',
    );
  }
  const sessionToken = env('AWS_SESSION_TOKEN');
  return { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) };
}

/**
 * The region: the given one, else `AWS_REGION`, else `AWS_DEFAULT_REGION`; without any, throws an
 * `RxAgentError` coded `missing_region`.
 */
export function resolveAwsRegion(region: string | undefined): string {
  const resolved = region ?? env('AWS_REGION') ?? env('AWS_DEFAULT_REGION');
  if (resolved === undefined) {
    throw new RxAgentError('bedrock: no AWS region: pass `region` or set AWS_REGION', 'missing_region');
  }
  return resolved;
}
