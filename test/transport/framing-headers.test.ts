import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/core/index.ts';
import { openaiCompatible } from '../../src/providers/openai/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

// Regression (review of issue 15, m3): a host forwarding an incoming request's headers sent its
// content-length or transfer-encoding on: a short content-length hung the request until the idle
// timeout (10 minutes, each of 3 attempts), the others failed as a retryable NetworkError.
describe('headers fetch sets itself', () => {
  const servers = useTranscriptServer();

  it.each([
    ['content-length', '1'],
    ['Transfer-Encoding', 'chunked'],
    ['connection', 'close'],
    ['keep-alive', 'timeout=5'],
    ['upgrade', 'websocket'],
    ['expect', '100-continue'],
  ])('a call header %s is an InvalidRequestError, nothing sent, not retried', async (name, value) => {
    const server = await servers.start([{ chunks: ['data: [DONE]\n\n'] }]);
    const model = openaiCompatible('m', { baseURL: server.url, apiKey: 'k', timeoutMs: 2_000 });
    const started = Date.now();
    const error = await lastValueFrom(model.stream({ messages: 'hi' }, { headers: { [name]: value } })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).message).toContain(name);
    expect(server.requests).toHaveLength(0);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('in the model options too, reported by the stream', async () => {
    const server = await servers.start([{ chunks: ['data: [DONE]\n\n'] }]);
    const model = openaiCompatible('m', {
      baseURL: server.url,
      apiKey: 'k',
      headers: { 'content-length': '1' },
    });
    await expect(lastValueFrom(model.stream({ messages: 'hi' }))).rejects.toBeInstanceOf(InvalidRequestError);
    expect(server.requests).toHaveLength(0);
  });
});

// Review 2 of 49a111e: te and trailer are not framing fetch sets: Node's fetch sends them as given
// (te: trailers is what gRPC-style servers ask for), so refusing them broke requests that worked.
describe('headers fetch sends as given', () => {
  const servers = useTranscriptServer();
  const reply =
    'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

  it.each([
    ['te', 'trailers'],
    ['TE', 'trailers'],
    ['trailer', 'Expires'],
  ])('a call header %s: %s reaches the server', async (name, value) => {
    const server = await servers.start([{ chunks: [reply] }]);
    const model = openaiCompatible('m', { baseURL: server.url, apiKey: 'k', retry: false });
    const response = await model.complete({ messages: 'hi' }, { headers: { [name]: value } });
    expect(response.text).toBe('ok');
    expect(server.requests[0]?.headers[name.toLowerCase()]).toBe(value);
  });
});
