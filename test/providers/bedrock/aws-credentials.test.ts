import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../src/index.ts';
import { awsCredentialsProvider } from '../../../src/providers/bedrock/aws-credentials.ts';
import { bedrock } from '../../../src/providers/bedrock/index.ts';
import { AWS_PEER_PACKAGES, loadAwsModules } from '../../../src/providers/bedrock/load-aws-modules.ts';
import { randomSplitBytes } from '../../support/split.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { bedrockFixture } from './contract-fixture.ts';
import { encodeTranscript } from './event-stream.ts';
import { verifySigV4 } from './verify-sigv4.ts';

// Every variable the AWS SDK's default chain reads; each test starts from none, with no shared files
// and no instance metadata, so nothing here touches the network or the user's ~/.aws.
const ENV = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_PROFILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AWS_EC2_METADATA_DISABLED',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_ROLE_ARN',
  'AWS_BEARER_TOKEN_BEDROCK',
];

describe('bedrock credentials', () => {
  const servers = useTranscriptServer();
  const saved = new Map<string, string | undefined>();
  let dir = '';
  beforeEach(async () => {
    for (const name of ENV) {
      saved.set(name, process.env[name]);
      delete process.env[name];
    }
    dir = await mkdtemp(join(tmpdir(), 'rxagent-aws-'));
    process.env.AWS_SHARED_CREDENTIALS_FILE = join(dir, 'credentials');
    process.env.AWS_CONFIG_FILE = join(dir, 'config');
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
  });
  afterEach(async () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await rm(dir, { recursive: true, force: true });
  });

  const complete = async (options: Parameters<typeof bedrock>[1] = {}) => {
    const server = await servers.start([
      {
        headers: { 'content-type': 'application/vnd.amazon.eventstream' },
        chunks: randomSplitBytes(encodeTranscript(bedrockFixture.transcripts.text), 3),
      },
    ]);
    const result = await bedrock('amazon.nova-lite-v1:0', {
      baseURL: server.url,
      region: 'us-east-1',
      ...options,
    })
      .complete({ messages: 'x' })
      .catch((error: unknown) => error);
    return { result, requests: server.requests };
  };

  it('explicit credentials win over the environment', async () => {
    process.env.AWS_ACCESS_KEY_ID = 'AKIDENV';
    process.env.AWS_SECRET_ACCESS_KEY = 'env-secret';
    const credentials = awsCredentialsProvider({ accessKeyId: 'AKIDGIVEN', secretAccessKey: 'given' });
    expect(await credentials()).toEqual({ accessKeyId: 'AKIDGIVEN', secretAccessKey: 'given' });
    expect(await awsCredentialsProvider(undefined)()).toEqual({
      accessKeyId: 'AKIDENV',
      secretAccessKey: 'env-secret',
    });
  });

  it('without keys, signs with the default profile of a shared credentials file', async () => {
    await writeFile(
      join(dir, 'credentials'),
      '[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = file-secret\n' +
        '[other]\naws_access_key_id = AKIDOTHER\naws_secret_access_key = other-secret\naws_session_token = other-token\n',
    );
    const { result, requests } = await complete();
    expect(result).toMatchObject({ text: 'Hello! How can I help you today?' });
    const request = requests[0];
    if (!request) throw new Error('no request');
    expect(verifySigV4(request, { accessKeyId: 'AKIDFILE', secretAccessKey: 'file-secret' }).valid).toBe(
      true,
    );
  });

  it('follows AWS_PROFILE to another profile of the file, session token included', async () => {
    await writeFile(
      join(dir, 'credentials'),
      '[other]\naws_access_key_id = AKIDOTHER\naws_secret_access_key = other-secret\naws_session_token = other-token\n',
    );
    process.env.AWS_PROFILE = 'other';
    const { requests } = await complete();
    const request = requests[0];
    if (!request) throw new Error('no request');
    expect(request.headers['x-amz-security-token']).toBe('other-token');
    expect(verifySigV4(request, { accessKeyId: 'AKIDOTHER', secretAccessKey: 'other-secret' }).valid).toBe(
      true,
    );
  });

  it('with no credentials anywhere: InvalidRequestError naming the option, the variable and the package; nothing sent', async () => {
    const { result, requests } = await complete();
    expect(InvalidRequestError.is(result)).toBe(true);
    expect(result).toMatchObject({ option: 'credentials', environmentVariable: 'AWS_ACCESS_KEY_ID' });
    expect((result as Error).message).toContain('@aws-sdk/credential-providers');
    expect(requests).toHaveLength(0);
  });

  it('without the credential-providers package: InvalidRequestError telling what to install', async () => {
    const missing = (specifier: string) => Promise.reject(new Error(`Cannot find package '${specifier}'`));
    const error = await awsCredentialsProvider(undefined, missing)().catch((e: unknown) => e);
    expect(InvalidRequestError.is(error)).toBe(true);
    expect((error as Error).message).toContain('install @aws-sdk/credential-providers');
    const wrong = await awsCredentialsProvider(undefined, () => Promise.resolve({}))().catch(
      (e: unknown) => e,
    );
    expect(InvalidRequestError.is(wrong)).toBe(true);
    expect((wrong as Error).message).toContain('has no fromNodeProviderChain');
  });

  it('without the AWS packages Bedrock needs: InvalidRequestError naming every one', async () => {
    const missing = (specifier: string) =>
      specifier === '@smithy/eventstream-codec'
        ? Promise.reject(new Error(`Cannot find package '${specifier}'`))
        : import(specifier);
    const error = await loadAwsModules(missing).catch((e: unknown) => e);
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'bedrock' });
    for (const name of AWS_PEER_PACKAGES) expect((error as Error).message).toContain(name);
    // The real loader finds them (they are dev dependencies here) and keeps one copy.
    const loaded = await loadAwsModules();
    expect(await loadAwsModules()).toBe(loaded);
    expect(typeof loaded.SignatureV4).toBe('function');
  });
});
