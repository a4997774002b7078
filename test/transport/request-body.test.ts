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
});
