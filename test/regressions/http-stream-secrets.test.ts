import { inspect } from 'node:util';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { NetworkError, RxAgentError, isRetryableError } from '../../src/index.ts';
import { httpStream } from '../../src/transport/index.ts';
import { startTranscriptServer } from '../support/transcript-server.ts';

const SECRET = 'sk-regression-0123456789abcdef';

/** A 127.0.0.1 URL nothing listens on any more: a real connection refusal. */
async function refusedURL(): Promise<string> {
  const server = await startTranscriptServer([{ chunks: [] }]);
  await server.close();
  return server.url;
}

describe('httpStream keeps secrets out of its errors (regressions)', () => {
  it('a failed connection: neither the error nor its causes (as a logger prints them) hold the key', async () => {
    const url = await refusedURL();
    const error: unknown = await firstValueFrom(
      httpStream({
        provider: 'p',
        url: `${url}/v1`,
        body: {},
        headers: { authorization: `Bearer ${SECRET}` },
      }),
    ).catch((e: unknown) => e);
    expect(NetworkError.is(error)).toBe(true);
    expect(isRetryableError(error)).toBe(true);
    expect((error as Error).cause).toBeDefined(); // the socket error is kept for diagnosis
    expect(inspect(error, { depth: 10 })).not.toContain(SECRET);
  });

  it('the message names the endpoint without the query string or the URL credentials', async () => {
    const url = await refusedURL();
    const withQuery: unknown = await firstValueFrom(
      httpStream({ provider: 'p', url: `${url}/v1/chat?api-version=1&key=${SECRET}`, body: {} }),
    ).catch((e: unknown) => e);
    expect(NetworkError.is(withQuery)).toBe(true);
    expect((withQuery as Error).message).toContain(`${url}/v1/chat`);
    expect(inspect(withQuery, { depth: 10 })).not.toContain(SECRET);

    const withUserInfo: unknown = await firstValueFrom(
      httpStream({ provider: 'p', url: url.replace('://', `://user:${SECRET}@`), body: {} }),
    ).catch((e: unknown) => e);
    expect((withUserInfo as Error).message).not.toContain(SECRET);
  });

  it('a body that cannot be serialised is a request error, not a (retried) network error', async () => {
    const server = await startTranscriptServer([{ chunks: ['ok'] }]);
    try {
      const error: unknown = await firstValueFrom(
        httpStream({ provider: 'p', url: server.url, body: { n: 1n } }),
      ).catch((e: unknown) => e);
      expect(RxAgentError.is(error)).toBe(true);
      expect(NetworkError.is(error)).toBe(false);
      expect(isRetryableError(error)).toBe(false);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
