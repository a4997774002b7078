import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  IncompleteStreamError,
  InvalidRequestError,
  RateLimitError,
  StreamParseError,
} from '../../../src/index.ts';
import { type BedrockOptions, bedrock } from '../../../src/providers/bedrock/index.ts';
import { settle } from '../../support/settle.ts';
import { randomSplitBytes } from '../../support/split.ts';
import type { ScriptedResponse } from '../../support/transcript-server.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { bedrockFixture } from './contract-fixture.ts';
import { encodeTranscript, ev, exc, meta, start, stop, text, toolInput, toolStart } from './event-stream.ts';
import { verifySigV4 } from './verify-sigv4.ts';

const MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const clock = () => new Date('2024-05-01T12:34:56Z');
const stream = (transcript: string, seed = 1): ScriptedResponse => ({
  headers: { 'content-type': 'application/vnd.amazon.eventstream' },
  chunks: randomSplitBytes(encodeTranscript(transcript), seed),
});
const ENV = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_REGION',
  'AWS_DEFAULT_REGION',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AWS_PROFILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONFIG_FILE',
  'AWS_EC2_METADATA_DISABLED',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
];

describe('bedrock()', () => {
  const servers = useTranscriptServer();
  const saved = new Map<string, string | undefined>();
  beforeEach(() => {
    for (const name of ENV) {
      saved.set(name, process.env[name]);
      delete process.env[name];
    }
    // The default credential chain finds nothing: no shared files, no instance metadata (no network).
    process.env.AWS_SHARED_CREDENTIALS_FILE = '/nonexistent/rxagent/credentials';
    process.env.AWS_CONFIG_FILE = '/nonexistent/rxagent/config';
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
  });
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
  const model = (options: BedrockOptions = {}) =>
    bedrock(MODEL, {
      baseURL: servers.url,
      region: 'eu-west-1',
      credentials: creds,
      now: clock,
      ...options,
    });

  it('signs the request with SigV4: the signature verifies independently and by re-signing', async () => {
    const server = await servers.start([stream(bedrockFixture.transcripts.text)]);
    const response = await model({ headers: { 'x-team': 'a' } }).complete({
      messages: 'Hi',
      system: 'Be brief.',
    });
    expect(response.text).toBe('Hello! How can I help you today?');
    const request = server.requests[0];
    if (!request) throw new Error('no request');
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream');
    const check = verifySigV4(request, creds);
    expect(check).toMatchObject({
      valid: true,
      accessKeyId: 'AKIDEXAMPLE',
      date: '20240501',
      region: 'eu-west-1',
      service: 'bedrock',
      amzDate: '20240501T123456Z',
    });
    expect(check.signedHeaders).toEqual(
      expect.arrayContaining(['content-type', 'host', 'x-amz-date', 'x-amz-content-sha256', 'x-team']),
    );
    expect(request.headers['x-amz-content-sha256']).toBe(check.payloadHash);
    expect(request.headers['x-amz-security-token']).toBeUndefined();

    // Re-sign what the server received with the same credentials and clock.
    const url = new URL(request.url, server.url);
    const headers = Object.fromEntries(
      check.signedHeaders.map((name) => [name, String(request.headers[name])]),
    );
    const signer = new SignatureV4({
      service: 'bedrock',
      region: 'eu-west-1',
      credentials: creds,
      sha256: Sha256,
    });
    const resigned = await signer.sign(
      {
        method: 'POST',
        protocol: 'http:',
        hostname: url.hostname,
        port: Number(url.port),
        path: url.pathname,
        query: {},
        headers,
        body: request.body,
      },
      { signingDate: clock() },
    );
    expect(resigned.headers.authorization).toBe(request.headers.authorization);
    // A tampered body no longer verifies.
    expect(verifySigV4({ ...request, body: request.body.replace('Hi', 'Ho') }, creds).valid).toBe(false);
    expect(request.json).toMatchObject({
      system: [{ text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
    });
  });

  it('signs with session credentials from a provider function, called per request', async () => {
    const server = await servers.start([stream(bedrockFixture.transcripts.text)]);
    let calls = 0;
    const session = { ...creds, sessionToken: 'FwoGZXIvYXdzEBY-token' };
    const m = model({
      credentials: async () => {
        calls += 1;
        return session;
      },
    });
    await m.complete({ messages: 'a' });
    await m.complete({ messages: 'b' });
    expect(calls).toBe(2);
    const request = server.requests[1];
    if (!request) throw new Error('no request');
    expect(request.headers['x-amz-security-token']).toBe('FwoGZXIvYXdzEBY-token');
    const check = verifySigV4(request, session);
    expect(check.valid).toBe(true);
    expect(check.signedHeaders).toContain('x-amz-security-token');
  });

  it('reads credentials and region from the standard environment variables', async () => {
    const server = await servers.start([stream(bedrockFixture.transcripts.text)]);
    process.env.AWS_ACCESS_KEY_ID = 'AKIDENV';
    process.env.AWS_SECRET_ACCESS_KEY = 'env-secret';
    process.env.AWS_SESSION_TOKEN = 'env-token';
    process.env.AWS_REGION = 'ap-south-1';
    await bedrock('amazon.nova-lite-v1:0', { baseURL: server.url }).complete({ messages: 'x' });
    const request = server.requests[0];
    if (!request) throw new Error('no request');
    expect(verifySigV4(request, { accessKeyId: 'AKIDENV', secretAccessKey: 'env-secret' })).toMatchObject({
      valid: true,
      region: 'ap-south-1',
    });
    expect(request.headers['x-amz-security-token']).toBe('env-token');
  });

  it('uses a Bedrock API key as a bearer token instead of signing', async () => {
    const server = await servers.start([stream(bedrockFixture.transcripts.text)]);
    process.env.AWS_BEARER_TOKEN_BEDROCK = 'bedrock-api-key-1';
    await bedrock(MODEL, { baseURL: server.url, region: 'us-east-1' }).complete({ messages: 'x' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer bedrock-api-key-1');
    expect(server.requests[0]?.headers['x-amz-date']).toBeUndefined();
  });

  it('errors with typed, non-retried errors when region or credentials are missing', async () => {
    const server = await servers.start([stream(bedrockFixture.transcripts.text)]);
    const noRegion = await bedrock(MODEL, { baseURL: server.url, credentials: creds })
      .complete({ messages: 'x' })
      .catch((e: unknown) => e);
    expect(InvalidRequestError.is(noRegion)).toBe(true);
    expect(noRegion).toMatchObject({ option: 'region', environmentVariable: 'AWS_REGION' });
    const noCreds = await bedrock(MODEL, { baseURL: server.url, region: 'us-east-1' })
      .complete({ messages: 'x' })
      .catch((e: unknown) => e);
    expect(InvalidRequestError.is(noCreds)).toBe(true);
    expect(noCreds).toMatchObject({ option: 'credentials', environmentVariable: 'AWS_ACCESS_KEY_ID' });
    const failing = await model({
      credentials: () => {
        throw new Error('sso session expired');
      },
    })
      .complete({ messages: 'x' })
      .catch((e: unknown) => e);
    expect(failing).toMatchObject({ code: 'signing_failed' });
    expect(server.requests).toHaveLength(0);
  });

  it('streams reasoning with its signature, then tool calls indexed per call, with cache usage and cost', async () => {
    const transcript =
      start +
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Think.' } } }) +
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig-' } } }) +
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: '1' } } }) +
      ev('contentBlockDelta', {
        contentBlockIndex: 1,
        delta: { reasoningContent: { redactedContent: 'cmVkYWN0ZWQ=' } },
      }) +
      ev('contentBlockDelta', { contentBlockIndex: 2, delta: { reasoningContent: { text: ' Again.' } } }) +
      ev('contentBlockDelta', { contentBlockIndex: 2, delta: { reasoningContent: { signature: 'sig-2' } } }) +
      text('Checking.', 3) +
      toolStart(4, 'tooluse_a', 'get_weather') +
      toolInput(4, '{"city":"Paris"}') +
      ev('someFutureEvent', { x: 1 }) +
      stop('tool_use') +
      meta(100, 50, { cacheReadInputTokens: 1000, cacheWriteInputTokens: 10 });
    const server = await servers.start([stream(transcript, 9)]);
    const events = await lastValueFrom(
      model().stream({ messages: 'x' }, { emitToolCallDeltas: true }).pipe(toArray()),
    );
    expect(events.slice(0, 6)).toEqual([
      { type: 'reasoning-delta', text: 'Think.' },
      { type: 'reasoning-delta', text: ' Again.' },
      { type: 'text-delta', text: 'Checking.' },
      { type: 'tool-call-delta', index: 0, id: 'tooluse_a', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Paris"}' },
      {
        type: 'tool-calls-ready',
        toolCalls: [{ id: 'tooluse_a', name: 'get_weather', arguments: { city: 'Paris' } }],
      },
    ]);
    const last = events.at(-1);
    if (last?.type !== 'stream-completed') throw new Error('no completion');
    expect(last.response).toMatchObject({
      finishReason: 'tool-calls',
      rawFinishReason: 'tool_use',
      provider: 'bedrock',
      model: MODEL,
      usage: {
        inputTokens: 1110,
        outputTokens: 50,
        totalTokens: 1160,
        cachedInputTokens: 1000,
        cacheWriteTokens: 10,
      },
      message: {
        metadata: {
          reasoning: 'Think. Again.',
          bedrock: {
            reasoning: [
              { text: 'Think.', signature: 'sig-1' },
              { redactedContent: 'cmVkYWN0ZWQ=' },
              { text: ' Again.', signature: 'sig-2' },
            ],
          },
        },
      },
    });
    // claude-sonnet-4: $3 in, $0.30 cache read, $3.75 cache write, $15 out per MTok:
    // in (100 × 3 + 1000 × 0.30 + 10 × 3.75) / 1e6 = 637.5 / 1e6; out 50 × 15 / 1e6 = 750 / 1e6.
    expect(last.response.cost).toEqual({ inputUsd: 0.0006375, outputUsd: 0.00075, totalUsd: 0.0013875 });

    // The turn goes back with its reasoning blocks first, in order.
    server.requests.length = 0;
    await server.close();
    const next = await servers.start([stream(bedrockFixture.transcripts.text)]);
    await model().complete({ messages: [last.response.message] });
    expect(next.requests[0]?.json).toMatchObject({
      messages: [
        {
          role: 'assistant',
          content: [
            { reasoningContent: { reasoningText: { text: 'Think.', signature: 'sig-1' } } },
            { reasoningContent: { redactedContent: 'cmVkYWN0ZWQ=' } },
            { reasoningContent: { reasoningText: { text: ' Again.', signature: 'sig-2' } } },
            { text: 'Checking.' },
            { toolUse: { toolUseId: 'tooluse_a', name: 'get_weather', input: { city: 'Paris' } } },
          ],
        },
      ],
    });
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['something_new', 'other'],
  ])('maps stopReason %s to %s', async (raw, unified) => {
    await servers.start([stream(start + text('a') + stop(raw) + meta(1, 1))]);
    expect(await model().complete({ messages: 'x' })).toMatchObject({
      finishReason: unified,
      rawFinishReason: raw,
    });
  });

  it('retries a throttlingException sent before any output, then streams', async () => {
    const server = await servers.start([
      stream(exc('throttlingException', { message: 'Too many tokens' })),
      stream(bedrockFixture.transcripts.text),
    ]);
    const response = await model({ retry: { maxRetries: 1, initialDelayMs: 1 } }).complete({ messages: 'x' });
    expect(response.text).toBe('Hello! How can I help you today?');
    expect(server.requests).toHaveLength(2);
    // each attempt is signed afresh
    expect(server.requests.every((r) => verifySigV4(r, creds).valid)).toBe(true);
  });

  it.each([
    ['throttlingException', 429, true],
    ['validationException', 400, false],
    ['modelStreamErrorException', 500, false],
    ['internalServerException', 500, false],
    ['serviceUnavailableException', 503, false],
    ['modelTimeoutException', 408, false],
    ['brandNewException', 500, false],
  ])('maps the stream exception %s to status %i', async (type, status, rateLimit) => {
    await servers.start([stream(start + exc(type, { message: 'Details here' }))]);
    const error = await model({ retry: false })
      .complete({ messages: 'x' })
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(RateLimitError.is(error)).toBe(rateLimit);
    expect(error).toMatchObject({ status, provider: 'bedrock', errorType: type });
    expect((error as Error).message).toBe(`bedrock: ${type}: Details here`);
  });

  it('on the shared chunk path: a body ending inside a frame is retried; a cut after messageStop keeps the turn', async () => {
    const whole = encodeTranscript(start + text('Hi') + stop('end_turn') + meta(3, 1));
    const cutInFrame: ScriptedResponse = {
      headers: { 'content-type': 'application/vnd.amazon.eventstream' },
      chunks: [encodeTranscript(start).subarray(0, 10)],
    };
    const server = await servers.start([
      cutInFrame,
      stream(bedrockFixture.transcripts.text),
      {
        headers: { 'content-type': 'application/vnd.amazon.eventstream' },
        chunks: [whole, new Uint8Array(0)],
        delayMs: 20,
        cut: true,
      },
    ]);
    const retried = await model({ retry: { maxRetries: 1, initialDelayMs: 1 } }).complete({ messages: 'x' });
    expect(retried.text).toBe('Hello! How can I help you today?');
    expect(server.requests).toHaveLength(2);
    const kept = await model({ retry: false }).complete({ messages: 'x' });
    expect(kept).toMatchObject({ text: 'Hi', finishReason: 'stop' });
    const alone = await settle(model({ retry: false }).stream({ messages: 'x' }));
    expect(alone.error).toBeUndefined();
  });

  it('does not retry a validationException, and reads the HTTP error body', async () => {
    const server = await servers.start([
      stream(exc('validationException', { message: 'messages: field required' })),
      bedrockFixture.transcripts.badRequest,
    ]);
    const m = model({ retry: { maxRetries: 3, initialDelayMs: 1 } });
    const inStream = await m.complete({ messages: 'x' }).catch((e: unknown) => e);
    expect(inStream).toMatchObject({ status: 400, errorType: 'validationException' });
    expect(server.requests).toHaveLength(1);
    const http = await m.complete({ messages: 'x' }).catch((e: unknown) => e);
    expect(http).toMatchObject({ status: 400, provider: 'bedrock' });
    expect((http as Error).message).toContain('the provided model identifier is invalid');
    expect(server.requests).toHaveLength(2);
  });

  it('errors with typed errors for an HTML page, an empty body, and malformed JSON on 200', async () => {
    await servers.start([
      { headers: { 'content-type': 'text/html' }, chunks: ['<html><body>Gateway</body></html>'] },
      { headers: { 'content-type': 'application/vnd.amazon.eventstream' }, chunks: [] },
      { chunks: [encodeTranscript(start)], headers: {} },
    ]);
    const m = model({ retry: false });
    const html = await m.complete({ messages: 'x' }).catch((e: unknown) => e);
    expect(StreamParseError.is(html)).toBe(true);
    expect((html as StreamParseError).raw).toContain('<html>');
    const empty = await m.complete({ messages: 'x' }).catch((e: unknown) => e);
    expect(IncompleteStreamError.is(empty)).toBe(true);
    const noStop = await m.complete({ messages: 'x' }).catch((e: unknown) => e);
    expect(IncompleteStreamError.is(noStop)).toBe(true);
  });

  it('unsubscribing aborts the request', async () => {
    const bytes = encodeTranscript(start + text('Hel') + text('lo'));
    const server = await servers.start([{ chunks: [bytes], hold: true }]);
    const aborted = server.nextClientAbort();
    const first = await firstValueFrom(model().stream({ messages: 'x' }));
    expect(first).toEqual({ type: 'text-delta', text: 'Hel' });
    await aborted;
    expect(server.clientAborts).toBe(1);
  });

  it('is cold, and has family capabilities, overridable', async () => {
    const server = await servers.start([stream(bedrockFixture.transcripts.text)]);
    const m = model({ capabilities: { json: true } });
    const { events } = await settle(m.stream({ messages: 'x' }));
    expect(events.at(-1)?.type).toBe('stream-completed');
    m.stream({ messages: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.requests).toHaveLength(1);
    expect(m).toMatchObject({ provider: 'bedrock', modelId: MODEL });
    expect(m.capabilities).toEqual({
      streaming: true,
      tools: true,
      vision: true,
      json: true,
      reasoning: true,
    });
  });

  it('sends inference config, tools, tool choice and additional model fields', async () => {
    const server = await servers.start([stream(bedrockFixture.transcripts.text)]);
    await model({ additionalModelRequestFields: { top_k: 40 } }).complete({
      messages: 'x',
      maxOutputTokens: 256,
      temperature: 0.5,
      stop: ['END'],
      tools: [{ name: 'get_time', description: 'Time', parameters: { type: 'object' } }],
      // Not 'required': Claude refuses thinking with a forced tool (an InvalidRequestError).
      toolChoice: 'auto',
      providerOptions: {
        bedrock: {
          thinking: { type: 'enabled', budget_tokens: 1024 },
          guardrailConfig: { guardrailIdentifier: 'g1', guardrailVersion: '1' },
        },
        anthropic: { thinking: { budgetTokens: 4096 } },
      },
    });
    expect(server.requests[0]?.json).toEqual({
      messages: [{ role: 'user', content: [{ text: 'x' }] }],
      inferenceConfig: { maxTokens: 256, temperature: 0.5, stopSequences: ['END'] },
      toolConfig: {
        tools: [
          { toolSpec: { name: 'get_time', description: 'Time', inputSchema: { json: { type: 'object' } } } },
        ],
      },
      additionalModelRequestFields: { top_k: 40, thinking: { type: 'enabled', budget_tokens: 1024 } },
      guardrailConfig: { guardrailIdentifier: 'g1', guardrailVersion: '1' },
    });
  });
});
