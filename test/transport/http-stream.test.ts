import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, RateLimitError } from '../../src/index.ts';
import { httpError, httpStream, parseCommonErrorBody } from '../../src/transport/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const decoder = new TextDecoder();
const text = (chunks: Uint8Array[]) => chunks.map((c) => decoder.decode(c, { stream: true })).join('');

describe('httpStream', () => {
  const servers = useTranscriptServer();

  it('posts JSON once per subscription and emits the body bytes', async () => {
    const server = await servers.start([{ chunks: ['hello ', 'world'] }]);
    const bytes$ = httpStream({
      provider: 'test',
      url: `${server.url}/x`,
      body: { a: 1 },
      headers: { 'x-k': 'v' },
    });
    expect(server.requests).toHaveLength(0); // cold
    expect(text(await lastValueFrom(bytes$.pipe(toArray())))).toBe('hello world');
    expect(text(await lastValueFrom(bytes$.pipe(toArray())))).toBe('hello world');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/x', json: { a: 1 } });
    expect(server.requests[0]?.headers['x-k']).toBe('v');
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('runs sign on the request about to be sent: its headers and exact body (signing)', async () => {
    const server = await servers.start([{ chunks: ['ok'] }]);
    const bytes$ = httpStream({
      provider: 'test',
      url: server.url,
      body: { a: 1 },
      sign: async (request) => {
        await Promise.resolve();
        request.headers.set('authorization', `sig ${request.method} ${request.body.length}`);
      },
    });
    await lastValueFrom(bytes$);
    expect(server.requests[0]?.headers.authorization).toBe('sig POST 7');
  });

  it('maps 429 to RateLimitError with the retry delay and the provider message', async () => {
    const server = await servers.start([
      {
        status: 429,
        headers: { 'retry-after': '3' },
        chunks: ['{"error":{"message":"Slow down","type":"rate"}}'],
      },
    ]);
    const error = await firstValueFrom(httpStream({ provider: 'p', url: server.url, body: {} })).catch(
      (e) => e,
    );
    expect(RateLimitError.is(error)).toBe(true);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3000, errorType: 'rate', provider: 'p' });
    expect(error.message).toContain('Slow down');
  });

  it('maps other statuses to ApiError with the raw body', async () => {
    const server = await servers.start([{ status: 500, chunks: ['<html>oops</html>'] }]);
    const error = await firstValueFrom(httpStream({ provider: 'p', url: server.url, body: {} })).catch(
      (e) => e,
    );
    expect(ApiError.is(error) && !RateLimitError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 500, body: '<html>oops</html>', code: 'api_error' });
  });

  it('maps a refused connection to NetworkError', async () => {
    const server = await servers.start([{}]);
    const url = server.url;
    await server.close();
    const error = await firstValueFrom(httpStream({ provider: 'p', url, body: {} })).catch((e) => e);
    expect(NetworkError.is(error)).toBe(true);
    expect(error.provider).toBe('p');
  });

  it('maps a connection cut mid-body to NetworkError', async () => {
    const server = await servers.start([
      { chunks: ['partial'], cut: true, headers: { 'content-length': '100' } },
    ]);
    const error = await lastValueFrom(httpStream({ provider: 'p', url: server.url, body: {} })).catch(
      (e) => e,
    );
    expect(NetworkError.is(error)).toBe(true);
  });

  it('aborts the request when unsubscribed', async () => {
    const server = await servers.start([{ chunks: ['first'], hold: true }]);
    const aborted = server.nextClientAbort();
    const first = await firstValueFrom(httpStream({ provider: 'p', url: server.url, body: {} }));
    expect(decoder.decode(first)).toBe('first');
    await aborted;
    expect(server.clientAborts).toBe(1);
  });

  it('stops reading as soon as the subscriber is closed', async () => {
    const server = await servers.start([{ chunks: ['a', 'b', 'c'], delayMs: 5 }]);
    const got = await lastValueFrom(
      httpStream({ provider: 'p', url: server.url, body: {} }).pipe(take(1), toArray()),
    );
    expect(got).toHaveLength(1);
  });
});

describe('httpError and parseCommonErrorBody', () => {
  it('reads the common error shapes', () => {
    expect(parseCommonErrorBody('{"error":{"message":"m","type":"t"}}')).toEqual({
      message: 'm',
      errorType: 't',
    });
    expect(parseCommonErrorBody('{"error":{"message":"m","status":"INVALID_ARGUMENT"}}')).toEqual({
      message: 'm',
      errorType: 'INVALID_ARGUMENT',
    });
    expect(parseCommonErrorBody('{"error":"model not found"}')).toEqual({ message: 'model not found' });
    expect(parseCommonErrorBody('not json')).toBeUndefined();
    expect(parseCommonErrorBody('[1]')).toBeUndefined();
    expect(parseCommonErrorBody('null')).toBeUndefined();
  });

  it('caps the kept body and names the status', () => {
    const error = httpError('p', 400, new Headers(), 'x'.repeat(10_000));
    expect(error.body).toHaveLength(8192);
    expect(error.message).toBe('p returned HTTP 400');
    expect(error.retryAfterMs).toBeUndefined();
  });
});
