import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { httpClient } from '../../src/transport/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

describe('httpClient request body', () => {
  const servers = useTranscriptServer();

  it('is sent whole, with its content-length, not as a chunked stream', async () => {
    const server = await servers.start([{ chunks: ['ok'] }]);
    const client = httpClient({ provider: 'p' });
    const body = { model: 'm', messages: [{ role: 'user', content: 'Grüße 👋' }] };
    await lastValueFrom(client.stream({ url: server.url, body }));
    await lastValueFrom(client.stream({ url: server.url, body, headers: { 'x-call': '1' } }));
    const sent = JSON.stringify(body);
    for (const request of server.requests) {
      expect(request.json).toEqual(body);
      expect(request.headers['transfer-encoding']).toBeUndefined();
      expect(request.headers['content-length']).toBe(String(Buffer.byteLength(sent)));
    }
    expect(server.requests[1]?.headers['x-call']).toBe('1');
  });

  it('goes through a fetch given in the options, which receives what it needs to send', async () => {
    const server = await servers.start([{ chunks: ['ok'] }]);
    const seen: string[] = [];
    const client = httpClient({
      provider: 'p',
      fetch: async (input, init) => {
        seen.push(input instanceof Request ? input.method : String(init?.method));
        return fetch(input, init);
      },
    });
    await lastValueFrom(client.stream({ url: server.url, body: { a: 1 } }));
    expect(seen).toEqual(['POST']);
    expect(server.requests[0]?.json).toEqual({ a: 1 });
    expect(server.requests[0]?.headers['content-length']).toBe('7');
  });

  // Regression (issue 15): a `Request` built before fetch (as ky did) is copied by undici, its body
  // piped through a stream, several milliseconds before a process's first request is sent.
  it('reaches fetch as the URL string and an init with the body text, not as a Request', async () => {
    const server = await servers.start([{ chunks: ['ok'] }]);
    const calls: { input: unknown; init: RequestInit | undefined }[] = [];
    const client = httpClient({
      provider: 'p',
      headers: { 'x-model': 'm' },
      fetch: async (input, init) => {
        calls.push({ input, init });
        return fetch(input, init);
      },
    });
    const url = `${server.url}/v1/chat`;
    await lastValueFrom(client.stream({ url, body: { a: 1 }, headers: { 'x-call': 'c' } }));
    expect(calls).toHaveLength(1);
    const [{ input, init } = { input: undefined, init: undefined }] = calls;
    expect(input).toBe(url);
    expect(init).toMatchObject({ method: 'POST', body: '{"a":1}', redirect: 'manual' });
    expect(init?.signal).toBeInstanceOf(AbortSignal);
    const headers = new Headers(init?.headers);
    expect(Object.fromEntries(headers)).toEqual({
      'content-type': 'application/json',
      'x-model': 'm',
      'x-call': 'c',
    });
  });

  it('uses the global fetch of the moment of each request', async () => {
    const server = await servers.start([{ chunks: ['ok'] }, { chunks: ['ok'] }]);
    const client = httpClient({ provider: 'p' });
    const original = globalThis.fetch;
    await lastValueFrom(client.stream({ url: server.url, body: {} }));
    let calls = 0;
    globalThis.fetch = async (input, init) => {
      calls += 1;
      return original(input, init);
    };
    try {
      await lastValueFrom(client.stream({ url: server.url, body: {} }));
    } finally {
      globalThis.fetch = original;
    }
    expect(calls).toBe(1);
    expect(server.requests).toHaveLength(2);
  });
});
