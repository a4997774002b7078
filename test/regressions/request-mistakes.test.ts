// Issue 7: configuration mistakes are InvalidRequestErrors found before sending — never a
// NetworkError, never retried, never a reason to fall back to the next model.
import { describe, expect, it } from 'vitest';
import { fallback, InvalidRequestError, isRetryableError } from '../../src/index.ts';
import { isAvailabilityError } from '../../src/models/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { readFileSync } from 'node:fs';
import { settle } from '../support/settle.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const text = readFileSync(new URL('../providers/openai/fixtures/text.sse', import.meta.url), 'utf8');
const SECRET = 'sk-secret-value-0123456789';

describe('configuration mistakes (regressions)', () => {
  const servers = useTranscriptServer();

  const expectRefusedUnsent = async (
    create: (baseURL: string) => ReturnType<typeof openai>,
    call: Parameters<ReturnType<typeof openai>['stream']>[1] = {},
    request: Parameters<ReturnType<typeof openai>['stream']>[0] = { messages: 'hi' },
  ) => {
    const primary = await servers.start([{ chunks: [text] }]);
    const backup = await servers.start([{ chunks: [text] }]);
    const { events, error } = await settle(create(primary.url).stream(request, call));
    expect(events).toEqual([]);
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_request', provider: 'openai' });
    expect(isRetryableError(error)).toBe(false);
    expect(isAvailabilityError(error)).toBe(false);
    expect(String((error as Error).message)).not.toContain(SECRET);
    // Not a fallback trigger: the backup model is never asked.
    const both = fallback([create(primary.url), openai('gpt-4o', { baseURL: backup.url, apiKey: 'k' })]);
    const fell = await settle(both.stream(request, call));
    expect(InvalidRequestError.is(fell.error)).toBe(true);
    expect(primary.requests).toHaveLength(0);
    expect(backup.requests).toHaveLength(0);
    return error as InvalidRequestError;
  };

  it('an invalid base URL', async () => {
    const error = await expectRefusedUnsent(() => openai('gpt-4o', { baseURL: 'not a url', apiKey: 'k' }));
    expect(error.option).toBe('baseURL');
    await expectRefusedUnsent(() => openai('gpt-4o', { baseURL: 'ftp://127.0.0.1/v1', apiKey: 'k' }));
  });

  it('a model header value with a forbidden character, without echoing the value', async () => {
    const error = await expectRefusedUnsent((url) =>
      openai('gpt-4o', { baseURL: url, apiKey: 'k', headers: { 'x-key': `${SECRET}\r\nx-injected: 1` } }),
    );
    expect(error.option).toBe('headers');
    expect(error.message).toContain('x-key');
  });

  it('a call header value with a forbidden character, or a header name that is not a token', async () => {
    await expectRefusedUnsent((url) => openai('gpt-4o', { baseURL: url, apiKey: 'k' }), {
      headers: { authorization: `Bearer ${SECRET}\r\nx-injected: 1` },
    });
    await expectRefusedUnsent((url) => openai('gpt-4o', { baseURL: url, apiKey: 'k' }), {
      headers: { 'bad name': 'v' },
    });
  });

  it('a body that cannot be serialised (a BigInt)', async () => {
    const error = await expectRefusedUnsent(
      (url) => openai('gpt-4o', { baseURL: url, apiKey: 'k' }),
      {},
      { messages: 'hi', temperature: 1n as unknown as number },
    );
    expect(error.message).toContain('cannot be serialised as JSON');
    expect(error.cause).toBeInstanceOf(TypeError);
  });
});
