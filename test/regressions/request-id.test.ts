// Issue 7: the provider's request id on responses and errors, and the headers on ApiError.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { bedrock } from '../../src/providers/bedrock/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { readFileSync } from 'node:fs';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const fixture = (path: string) => readFileSync(new URL(`../providers/${path}`, import.meta.url), 'utf8');

describe('request ids (regressions)', () => {
  const servers = useTranscriptServer();

  it('ChatResponse.requestId from x-request-id (OpenAI) and request-id (Anthropic)', async () => {
    const o = await servers.start([
      { headers: { 'x-request-id': 'req_openai_1' }, chunks: [fixture('openai/fixtures/text.sse')] },
    ]);
    const a = await servers.start([
      { headers: { 'request-id': 'req_anthropic_1' }, chunks: [fixture('anthropic/fixtures/text.sse')] },
    ]);
    const fromOpenAI = await openai('gpt-4o-mini', { baseURL: o.url, apiKey: 'k' }).complete({
      messages: 'hi',
    });
    const fromAnthropic = await anthropic('claude-sonnet-4-5', { baseURL: a.url, apiKey: 'k' }).complete({
      messages: 'hi',
    });
    expect(fromOpenAI.requestId).toBe('req_openai_1');
    expect(fromAnthropic.requestId).toBe('req_anthropic_1');
  });

  it('the id of the attempt that answered, after a retry', async () => {
    const server = await servers.start([
      { status: 503, headers: { 'x-request-id': 'req_failed' }, chunks: ['{}'] },
      { headers: { 'x-request-id': 'req_answered' }, chunks: [fixture('openai/fixtures/text.sse')] },
    ]);
    const response = await openai('gpt-4o-mini', {
      baseURL: server.url,
      apiKey: 'k',
      retry: { maxRetries: 1, initialDelayMs: 1 },
    }).complete({ messages: 'hi' });
    expect(response.requestId).toBe('req_answered');
  });

  it('no requestId when the server sends none', async () => {
    const server = await servers.start([{ chunks: [fixture('openai/fixtures/text.sse')] }]);
    const response = await openai('gpt-4o-mini', { baseURL: server.url, apiKey: 'k' }).complete({
      messages: 'hi',
    });
    expect(response).not.toHaveProperty('requestId');
  });

  it('ApiError.requestId and ApiError.headers (Bedrock: x-amzn-requestid)', async () => {
    const server = await servers.start([
      {
        status: 400,
        headers: {
          'content-type': 'application/json',
          'x-amzn-requestid': 'amzn-1',
          'x-amzn-errortype': 'ValidationException',
        },
        chunks: ['{"message":"bad input"}'],
      },
    ]);
    const error = await bedrock('amazon.nova-lite-v1:0', {
      baseURL: server.url,
      region: 'us-east-1',
      apiKey: 'k',
    })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, requestId: 'amzn-1' });
    expect((error as ApiError).headers?.get('x-amzn-errortype')).toBe('ValidationException');
  });
});
