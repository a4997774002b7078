import { InvalidRequestError } from '../../core/index.ts';
import { env } from '../shared/index.ts';

/** AWS credentials for SigV4 signing. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** Credentials, or a function that fetches them (called before every request, so it may refresh). */
export type AwsCredentialsInput = AwsCredentials | (() => AwsCredentials | Promise<AwsCredentials>);

/** The optional peer dependency that provides the AWS SDK's default credential chain. */
export const AWS_CREDENTIAL_PROVIDERS = '@aws-sdk/credential-providers';

type CredentialsProvider = () => Promise<AwsCredentials>;

/** How the chain's package is imported; a parameter only so a test can make it missing. */
type ImportModule = (specifier: string) => Promise<unknown>;

const importModule: ImportModule = (specifier) => import(specifier);

/**
 * A function returning the credentials to sign each request with, in this order: the given ones
 * (or what the given function returns); else `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
 * `AWS_SESSION_TOKEN`, read at request time; else the AWS SDK's default chain, `fromNodeProviderChain`
 * from the optional peer `@aws-sdk/credential-providers` (shared credentials and config files with
 * `AWS_PROFILE`, SSO, `credential_process`, web identity, ECS and EC2 instance roles), created once
 * per provider so its cache and refresh apply. Without any, rejects with an `InvalidRequestError`
 * naming the option, the variables and the package.
 * @param input the `credentials` option of `bedrock()`.
 * @param load the importer of the chain's package. @default dynamic `import()`
 * @example const credentials = awsCredentialsProvider(undefined); await credentials();
 */
export function awsCredentialsProvider(
  input: AwsCredentialsInput | undefined,
  load: ImportModule = importModule,
): CredentialsProvider {
  let chain: Promise<CredentialsProvider> | undefined;
  return async () => {
    const given = typeof input === 'function' ? await input() : input;
    if (given !== undefined) return given;
    const fromEnv = environmentCredentials();
    if (fromEnv !== undefined) return fromEnv;
    chain ??= defaultChain(load).catch((error: unknown) => {
      chain = undefined;
      throw error;
    });
    const provider = await chain;
    try {
      return await provider();
    } catch (cause) {
      throw missingCredentials('the default credential chain found none', cause);
    }
  };
}

function environmentCredentials(): AwsCredentials | undefined {
  const accessKeyId = env('AWS_ACCESS_KEY_ID');
  const secretAccessKey = env('AWS_SECRET_ACCESS_KEY');
  if (accessKeyId === undefined || secretAccessKey === undefined) return undefined;
  const sessionToken = env('AWS_SESSION_TOKEN');
  return { accessKeyId, secretAccessKey, ...(sessionToken === undefined ? {} : { sessionToken }) };
}

async function defaultChain(load: ImportModule): Promise<CredentialsProvider> {
  let module: { fromNodeProviderChain?: unknown };
  try {
    module = (await load(AWS_CREDENTIAL_PROVIDERS)) as { fromNodeProviderChain?: unknown };
  } catch (cause) {
    throw missingCredentials(`install ${AWS_CREDENTIAL_PROVIDERS} for the default credential chain`, cause);
  }
  if (typeof module.fromNodeProviderChain !== 'function') {
    throw missingCredentials(`${AWS_CREDENTIAL_PROVIDERS} has no fromNodeProviderChain`, undefined);
  }
  return (module.fromNodeProviderChain as () => CredentialsProvider)();
}

function missingCredentials(why: string, cause: unknown): InvalidRequestError {
  return new InvalidRequestError(
    `bedrock: no AWS credentials (${why}): pass \`credentials\`, set AWS_ACCESS_KEY_ID and ` +
      `AWS_SECRET_ACCESS_KEY, or configure a profile for ${AWS_CREDENTIAL_PROVIDERS}`,
    { provider: 'bedrock', option: 'credentials', environmentVariable: 'AWS_ACCESS_KEY_ID', cause },
  );
}

/**
 * The region: the given one, else `AWS_REGION`, else `AWS_DEFAULT_REGION`; without any, throws an
 * `InvalidRequestError` naming the option and the variable.
 */
export function resolveAwsRegion(region: string | undefined): string {
  const resolved = region ?? env('AWS_REGION') ?? env('AWS_DEFAULT_REGION');
  if (resolved === undefined) {
    throw new InvalidRequestError('bedrock: no AWS region: pass `region` or set AWS_REGION', {
      provider: 'bedrock',
      option: 'region',
      environmentVariable: 'AWS_REGION',
    });
  }
  return resolved;
}
