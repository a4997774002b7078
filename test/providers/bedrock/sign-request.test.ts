import { describe, expect, it } from 'vitest';
import { ApiError, RateLimitError } from '../../../src/index.ts';
import { createBedrockMapper } from '../../../src/providers/bedrock/bedrock-chunk-mapper.ts';
import { sigV4Signer } from '../../../src/providers/bedrock/sign-request.ts';
import { verifySigV4 } from './verify-sigv4.ts';

const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret/with+chars' };

describe('sigV4Signer', () => {
  it('signs path, query, port and body so that an independent SigV4 check verifies them', async () => {
    const sign = sigV4Signer({
      region: 'us-west-2',
      service: 'bedrock',
      credentials: async () => creds,
      now: () => new Date('2025-02-03T04:05:06Z'),
    });
    const body = '{"messages":[{"role":"user","content":[{"text":"Grüße"}]}]}';
    const headers = await sign({
      url: 'http://127.0.0.1:8443/model/meta.llama3-1-8b-instruct-v1%3A0/converse-stream?b=two%20words&a=1',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(headers).not.toHaveProperty('host');
    expect(headers['x-amz-date']).toBe('20250203T040506Z');
    const received = {
      method: 'POST',
      url: '/model/meta.llama3-1-8b-instruct-v1%3A0/converse-stream?b=two%20words&a=1',
      headers: { ...headers, host: '127.0.0.1:8443' },
      body,
      json: undefined,
    };
    expect(verifySigV4(received, creds)).toMatchObject({
      valid: true,
      region: 'us-west-2',
      date: '20250203',
    });
    expect(verifySigV4({ ...received, url: received.url.replace('a=1', 'a=2') }, creds).valid).toBe(false);
  });
});

describe('createBedrockMapper', () => {
  it('turns generic error messages and exception-named events into typed errors', () => {
    const mapper = createBedrockMapper();
    expect(() =>
      mapper.map({ messageType: 'error', eventType: 'InternalFailure', payload: { message: 'boom' } }),
    ).toThrow(expect.objectContaining({ status: 500, errorType: 'InternalFailure' }));
    let error: unknown;
    try {
      mapper.map({ messageType: 'event', eventType: 'throttlingException', payload: { Message: 'slow' } });
    } catch (e) {
      error = e;
    }
    expect(RateLimitError.is(error)).toBe(true);
    expect((error as Error).message).toBe('bedrock: throttlingException: slow');
    expect(() => mapper.map({ messageType: 'exception', eventType: '', payload: 'x' })).toThrow(ApiError);
  });

  it('ignores empty deltas, non-object payloads and blocks that are not tool uses', () => {
    const mapper = createBedrockMapper();
    expect(mapper.map({ messageType: 'event', eventType: 'contentBlockDelta', payload: {} })).toEqual([]);
    expect(mapper.map({ messageType: 'event', eventType: 'contentBlockDelta', payload: null })).toEqual([]);
    expect(
      mapper.map({ messageType: 'event', eventType: 'contentBlockStart', payload: { start: {} } }),
    ).toEqual([]);
    expect(mapper.map({ messageType: 'event', eventType: 'messageStop', payload: {} })).toEqual([]);
    expect(mapper.end()).toEqual([
      {
        type: 'finish',
        finishReason: 'other',
        rawFinishReason: 'unknown',
      },
    ]);
  });
});
