import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { ApiError, InvalidRequestError, NetworkError } from '../../src/index.ts';
import {
  checkRequest,
  httpClient,
  mergeHeaders,
  readErrorBody,
  requestIdOf,
} from '../../src/transport/index.ts';
import { settle } from '../support/settle.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

describe('httpClient', () => {
  const servers = useTranscriptServer();

  it('merges content-type < provider defaults < model headers < call headers, case-insensitively', async () => {
    const server = await servers.start([{ chunks: ['ok'] }]);
    const client = httpClient({
      provider: 'p',
      defaultHeaders: { authorization: 'Bearer default', 'x-a': 'default', 'x-b': 'default' },
      headers: { Authorization: 'Bearer model', 'X-B': 'model' },
    });
    await lastValueFrom(client.stream({ url: server.url, body: {} }));
    await lastValueFrom(
      client.stream({ url: server.url, body: {}, headers: { 'X-A': 'call', 'CONTENT-TYPE': 'text/plain' } }),
    );
    expect(server.requests[0]?.headers).toMatchObject({
      authorization: 'Bearer model',
      'x-a': 'default',
      'x-b': 'model',
      'content-type': 'application/json',
    });
    expect(server.requests[1]?.headers).toMatchObject({
      authorization: 'Bearer model',
      'x-a': 'call',
      'content-type': 'text/plain',
    });
  });

  it('accepts the credential from a call header; without it anywhere, nothing is sent', async () => {
    const server = await servers.start([{ chunks: ['ok'] }]);
    const client = httpClient({
      provider: 'p',
      credential: {
        headers: ['x-api-key', 'authorization'],
        option: 'apiKey',
        environmentVariables: ['P_KEY'],
      },
    });
    const missing = await settle(client.stream({ url: server.url, body: {} }));
    expect(InvalidRequestError.is(missing.error)).toBe(true);
    expect((missing.error as Error).message).toBe('p: no API key: pass the apiKey option or set P_KEY');
    expect(server.requests).toHaveLength(0);
    await lastValueFrom(client.stream({ url: server.url, body: {}, headers: { 'X-Api-Key': 'k' } }));
    expect(server.requests[0]?.headers['x-api-key']).toBe('k');
  });

  it('signs exactly what is sent: merged headers and body; the client keeps its own headers', async () => {
    const server = await servers.start([{ chunks: ['ok'] }]);
    const signed: { url: string; method: string; headers: Record<string, string>; body: string }[] = [];
    const client = httpClient({
      provider: 'p',
      defaultHeaders: { 'x-a': 'default' },
      headers: { 'X-B': 'model' },
      sign: ({ signal: _signal, ...request }) => {
        signed.push({ ...request, headers: Object.fromEntries(request.headers) });
        request.headers.set('x-signature', `sig-${signed.length}`);
      },
    });
    const url = `${server.url}/v1?q=1`;
    await lastValueFrom(client.stream({ url, body: { a: 'é' }, headers: { 'X-A': 'call' } }));
    await lastValueFrom(client.stream({ url, body: { b: 2 } }));
    expect(signed).toEqual([
      {
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-a': 'call', 'x-b': 'model' },
        body: '{"a":"é"}',
      },
      {
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-a': 'default', 'x-b': 'model' },
        body: '{"b":2}',
      },
    ]);
    expect(server.requests.map((r) => [r.headers['x-signature'], r.headers['x-a'], r.body])).toEqual([
      ['sig-1', 'call', '{"a":"é"}'],
      ['sig-2', 'default', '{"b":2}'],
    ]);
  });

  it('errors the stream with what sign throws, sending nothing', async () => {
    const server = await servers.start([{ chunks: ['ok'] }]);
    const typed = new InvalidRequestError('p: no region', { provider: 'p', option: 'region' });
    const rejected = await settle(
      httpClient({ provider: 'p', sign: () => Promise.reject(typed) }).stream({ url: server.url, body: {} }),
    );
    expect(rejected.error).toBe(typed);
    const thrown = await settle(
      httpClient({
        provider: 'p',
        sign: () => {
          throw new Error('boom');
        },
      }).stream({ url: server.url, body: {} }),
    );
    expect(NetworkError.is(thrown.error)).toBe(true);
    expect((thrown.error as Error).cause).toMatchObject({ message: 'boom' });
    expect(server.requests).toHaveLength(0);
  });

  // Regression (issue 15, "every wait has a bound"): a signer waiting on a credentials endpoint had
  // no way to learn that its request was given up, and kept waiting after the subscriber left.
  it("aborts the signer's signal when the subscriber leaves while it works, and sends nothing", async () => {
    const server = await servers.start([{ chunks: ['ok'] }]);
    let seen: AbortSignal | undefined;
    const subscription = httpClient({
      provider: 'p',
      sign: ({ signal }) => {
        seen = signal;
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        });
      },
    })
      .stream({ url: server.url, body: {} })
      .subscribe({ error: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(seen?.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.requests).toHaveLength(0);
  });

  it('redacts from an error body what sign added (a signature the server quotes back)', async () => {
    const server = await servers.start([
      { status: 403, chunks: ['{"message":"signature AWS4-HMAC-SHA256 sig-0123456789 does not match"}'] },
    ]);
    const failed = await settle(
      httpClient({
        provider: 'p',
        sign: (request) => {
          request.headers.set('authorization', 'AWS4-HMAC-SHA256 sig-0123456789');
        },
      }).stream({ url: server.url, body: {} }),
    );
    expect(ApiError.is(failed.error)).toBe(true);
    expect(inspect(failed.error, { depth: 10 })).not.toContain('sig-0123456789');
  });

  it('reports a bad model header on every subscription, not at construction', async () => {
    const client = httpClient({ provider: 'p', headers: { 'x-k': 'a\nb' } });
    const first = await settle(client.stream({ url: 'http://127.0.0.1:1/', body: {} }));
    expect(InvalidRequestError.is(first.error)).toBe(true);
    expect(first.error).toMatchObject({ option: 'headers' });
  });
});

describe('checkRequest, mergeHeaders, requestIdOf, readErrorBody', () => {
  it('checkRequest: URL, body and headers', () => {
    const none = new Headers();
    expect(checkRequest('p', none, undefined, { url: 'https://x.test/v1', body: { a: 1 } })).toEqual({
      body: '{"a":1}',
    });
    expect(() => checkRequest('p', none, undefined, { url: '/relative', body: {} })).toThrow(
      InvalidRequestError,
    );
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => checkRequest('p', none, undefined, { url: 'https://x.test', body: cycle })).toThrow(
      'cannot be serialised as JSON',
    );
  });

  it('mergeHeaders: later wins whatever the case; bad names and values are InvalidRequestError', () => {
    const merged = mergeHeaders('p', 'headers', { 'Content-Type': 'a' }, { 'content-type': 'b' });
    expect([...merged.entries()]).toEqual([['content-type', 'b']]);
    expect(() => mergeHeaders('p', 'headers', { 'a b': 'v' })).toThrow('is not a valid header name');
    expect(() => mergeHeaders('p', 'headers', { a: 'x\u0000y' })).toThrow(InvalidRequestError);
  });

  it('requestIdOf reads x-request-id, request-id, then x-amzn-requestid', () => {
    expect(requestIdOf(new Headers({ 'x-amzn-requestid': 'c', 'request-id': 'b' }))).toBe('b');
    expect(requestIdOf(new Headers({ 'X-Request-Id': 'a', 'request-id': 'b' }))).toBe('a');
    expect(requestIdOf(new Headers({ 'x-amzn-requestid': 'c' }))).toBe('c');
    expect(requestIdOf(new Headers())).toBeUndefined();
  });

  it('readErrorBody stops at its cap and cancels the body', async () => {
    let cancelled = false;
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
      },
      cancel() {
        cancelled = true;
      },
    });
    const text = await readErrorBody(new Response(body), 2500);
    expect(text).toHaveLength(2500);
    expect(cancelled).toBe(true);
    expect(pulls).toBeLessThan(10);
  });
});
