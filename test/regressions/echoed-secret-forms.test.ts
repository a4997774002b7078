// Regression (issue 15, "no key … appears in any error message"): a gateway quoting the request
// back kept a key the redaction did not recognise in the form it was quoted: percent-encoded with
// lower-case hex digits, form-encoded (`+` for a space), a Basic token's decoded `user:password`,
// and any key under 8 characters. Each case below printed the secret before.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { redactBody, redactSecrets, requestSecrets } from '../../src/transport/request-secrets.ts';
import { settle } from '../support/settle.ts';
import type { RecordedRequest } from '../support/transcript-server.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const shown = (error: unknown) => inspect(error, { depth: Infinity, showHidden: true });

/** A careless gateway: its 401 quotes what `quote` makes of the request, in the body and a header. */
const echo = (quote: (request: RecordedRequest) => string) => (request: RecordedRequest) => ({
  status: 401,
  headers: { 'content-type': 'application/json', 'x-echo': quote(request) },
  chunks: [JSON.stringify({ error: { message: `rejected: ${quote(request)}.`, type: 'auth' } })],
});

const lowerEscapes = (text: string) =>
  encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

describe('a gateway that quotes the secret in another form', () => {
  const servers = useTranscriptServer();

  const failure = async (
    quote: (request: RecordedRequest) => string,
    options: { apiKey?: string; path?: string; headers?: Record<string, string> },
  ) => {
    const server = await servers.start(echo(quote));
    const model = openai('gpt-4o-mini', {
      baseURL: `${server.url}/v1${options.path ?? ''}`,
      apiKey: options.apiKey ?? 'sk-default-key-123456',
      retry: false,
      ...(options.headers ? { headers: options.headers } : {}),
    });
    const { error } = await settle(model.stream({ messages: 'hi' }));
    expect(ApiError.is(error)).toBe(true);
    return error as ApiError;
  };

  it('percent-encoded with lower-case hex digits', async () => {
    const key = 'sk-A/b+c=d_1234567';
    const error = await failure(() => `key=${lowerEscapes(key)}`, { apiKey: key });
    expect(error.message).toContain('key=[redacted]');
    expect(shown(error)).not.toContain(lowerEscapes(key));
    expect(error.headers?.get('x-echo')).toBe('key=[redacted]');
  });

  it('form-encoded, a space as +', async () => {
    const cookie = 'sid=alpha beta 4411';
    const form = new URLSearchParams({ cookie }).toString().slice('cookie='.length);
    expect(form).toBe('sid%3Dalpha+beta+4411');
    const error = await failure(() => `cookie=${form}`, { headers: { cookie } });
    expect(shown(error)).not.toContain(form);
    expect(error.message).toContain('cookie=[redacted]');
  });

  it("a Basic token's decoded user:password, and the password alone", async () => {
    const basic = `Basic ${btoa('alice:pw-9f3e')}`;
    const both = await failure(() => 'user alice:pw-9f3e', { headers: { 'proxy-authorization': basic } });
    expect(shown(both)).not.toContain('pw-9f3e');
    const password = await failure(() => 'password pw-9f3e', {
      headers: { 'proxy-authorization': basic },
    });
    expect(shown(password)).not.toContain('pw-9f3e');
    expect(password.message).toContain('password [redacted]');
  });

  it('a key under 8 characters, as a whole token', async () => {
    const error = await failure(() => `bad key k-42 for keyring`, { apiKey: 'k-42' });
    expect(error.message).toContain('bad key [redacted] for keyring');
    expect(shown(error)).not.toMatch(/\bk-42\b/);
  });
});

describe('requestSecrets and redactSecrets', () => {
  it('a short secret is cut only between characters that are not letters or digits', () => {
    const secrets = requestSecrets('https://h.test/v1?key=abc', [new Headers({ 'x-api-key': 'q1' })]);
    expect(redactSecrets('abc, abcd, xabc, (abc) q1 q12 q1.', secrets)).toBe(
      '[redacted], abcd, xabc, ([redacted]) [redacted] q12 [redacted].',
    );
  });

  it('a query value of a plain parameter under 8 characters is no secret; of a credential name it is', () => {
    const secrets = requestSecrets('https://h.test/v1?alt=sse&api-version=2024&access_token=t0k', []);
    expect(secrets).not.toContain('sse');
    expect(secrets).not.toContain('2024');
    expect(secrets).toContain('t0k');
  });

  it('further headers: a credential name at any length, others from 8 characters', () => {
    const headers = new Headers({ 'x-tenant': '7', 'x-session': 's7', 'x-region': 'eu-west-1a' });
    const secrets = requestSecrets('https://h.test/', [headers], ['x-tenant', 'x-session', 'x-region']);
    expect(secrets).not.toContain('7');
    expect(secrets).toContain('s7');
    expect(secrets).toContain('eu-west-1a');
  });

  it('a Basic token that is no base64 of user:password adds only itself', () => {
    const secrets = requestSecrets('https://h.test/', [new Headers({ authorization: 'Basic %%%notbase64' })]);
    expect(secrets).toContain('%%%notbase64');
    expect(secrets.every((secret) => !secret.includes(':'))).toBe(true);
  });

  it('a short secret quoted JSON-escaped is cut as a whole token too', () => {
    expect(redactBody('{"m":"key a\\u002Fb, ka/bc"}', ['a/b'])).toBe('{"m":"key [redacted], ka/bc"}');
  });

  it('a secret with regular-expression characters is matched literally, never as a pattern', () => {
    expect(redactSecrets('x (a-b|c) y a-b', ['(a-b|c)'])).toBe('x [redacted] y a-b');
    expect(redactSecrets('1.2 and 1x2', ['1.2'])).toBe('[redacted] and 1x2');
  });
});
