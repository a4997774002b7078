// Regression (issue 15, "no key … appears in any error message"): a gateway quoting the request
// back kept a key the redaction did not recognise in the form it was quoted: percent-encoded with
// lower-case hex digits, form-encoded (`+` for a space), a Basic token's decoded `user:password`,
// and any key under 8 characters. Each case below printed the secret before.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  RateLimitError,
  StreamLimitError,
  StreamParseError,
  ToolCallParseError,
} from '../../src/index.ts';
import { fromSSE } from '../../src/http/index.ts';
import { publicError } from '../../src/http/public-error.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { redactError } from '../../src/transport/redact-error.ts';
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
    const secrets = requestSecrets('https://h.test/v1?key=abc1', [new Headers({ 'x-api-key': 'q1w2' })]);
    expect(redactSecrets('abc1, abc12, xabc1, (abc1) q1w2 q1w23 q1w2.', secrets)).toBe(
      '[redacted], abc12, xabc1, ([redacted]) [redacted] q1w23 [redacted].',
    );
  });

  it('values under 4 characters are no secrets: ?key=1 does not cut every 1 of a JSON body', () => {
    const secrets = requestSecrets('https://h.test/v1?key=1', [new Headers({ authorization: 'Bearer a' })]);
    const body = '{"error":{"code":1,"message":"Provide a valid key","type":"a"}}';
    expect(redactBody(body, secrets)).toBe(body);
  });

  it('a query value of a plain parameter under 8 characters is no secret; of a credential name it is', () => {
    const secrets = requestSecrets(
      'https://h.test/v1?alt=sse&api-version=2024&access_token=t0k3&design=abcd&author=bobby',
      [],
    );
    expect(secrets).not.toContain('sse');
    expect(secrets).not.toContain('2024');
    expect(secrets).not.toContain('abcd');
    expect(secrets).not.toContain('bobby');
    expect(secrets).toContain('t0k3');
  });

  it('every header named like a credential, whoever set it: a gateway key is cut too', () => {
    const headers = new Headers({
      'cf-aig-authorization': 'Bearer cfaig-SECRET-1234567',
      'helicone-auth': 'Bearer sk-helicone-SECRET-99',
      apiKey: 'k3y4',
      'x-tenant': '7',
      'x-region': 'eu-west-1a',
    });
    const secrets = requestSecrets('https://h.test/', [headers]);
    expect(secrets).toEqual(
      expect.arrayContaining(['cfaig-SECRET-1234567', 'sk-helicone-SECRET-99', 'k3y4']),
    );
    expect(secrets).not.toContain('7');
    expect(secrets).not.toContain('eu-west-1a');
  });

  it('further headers: a credential name at 4 characters, others from 8', () => {
    const headers = new Headers({ 'x-tenant': '7', 'x-session': 's7s7', 'x-region': 'eu-west-1a' });
    const secrets = requestSecrets('https://h.test/', [headers], ['x-tenant', 'x-session', 'x-region']);
    expect(secrets).not.toContain('7');
    expect(secrets).toContain('s7s7');
    expect(secrets).toContain('eu-west-1a');
  });

  it('each cookie by its own name', () => {
    const secrets = requestSecrets('https://h.test/', [
      new Headers({ cookie: 'theme=dark; sid=9f8e7d6c5b4a3f2e1d0c; lang=en' }),
    ]);
    expect(redactSecrets('session 9f8e7d6c5b4a3f2e1d0c expired, theme dark', secrets)).toBe(
      'session [redacted] expired, theme dark',
    );
  });

  it('Basic: a Latin-1 pair, and a key sent as the user with no password', () => {
    const latin = requestSecrets('https://h.test/', [
      new Headers({ authorization: `Basic ${btoa('user:p\xe4sswort99')}` }),
    ]);
    expect(redactSecrets('user:p\u00e4sswort99 rejected', latin)).toBe('[redacted] rejected');
    const keyAsUser = requestSecrets('https://h.test/', [
      new Headers({ authorization: `Basic ${btoa('sk_live_abcdef123456:')}` }),
    ]);
    expect(redactSecrets('no such key: sk_live_abcdef123456', keyAsUser)).toBe('no such key: [redacted]');
  });

  it('a Basic token that is no base64 adds only itself', () => {
    const secrets = requestSecrets('https://h.test/', [new Headers({ authorization: 'Basic %%%notbase64' })]);
    expect(secrets).toContain('%%%notbase64');
    expect(secrets.every((secret) => !secret.includes(':'))).toBe(true);
  });

  it("form encoding escapes !'()*~ too", () => {
    const secrets = requestSecrets("https://h.test/v1?key=Passw0rd!(x)~'*", []);
    const form = new URLSearchParams({ key: "Passw0rd!(x)~'*" }).toString();
    expect(redactSecrets(form, secrets)).toBe('key=[redacted]');
  });

  it('a short secret right after or before an escape (.NET writes quotes as \\u0027) is cut', () => {
    const secrets = requestSecrets('https://h.test/v1?token=x7Kq2p', []);
    expect(JSON.parse(redactBody('{"m":"token \\u0027x7Kq2p\\u0027 expired"}', secrets)).m).toBe(
      "token '[redacted]' expired",
    );
    expect(redactSecrets('/login?next=%2Fa%2Fstream%3Ftoken%3Dx7Kq2p', secrets)).toBe(
      '/login?next=%2Fa%2Fstream%3Ftoken%3D[redacted]',
    );
  });

  it('JSON escapes: a secret with " or \\, and one with a surrogate pair written as two escapes', () => {
    const quoted = requestSecrets('https://h.test/', [new Headers({ 'x-api-key': 'pa"ss\\word-123456' })]);
    const body = JSON.stringify({ m: 'bad key pa"ss\\word-123456' });
    expect(JSON.parse(redactBody(body, quoted)).m).toBe('bad key [redacted]');
    const emoji = requestSecrets('https://h.test/v1?token=k\u{1F600}1234567', []);
    expect(JSON.parse(redactBody('{"m":"k\\ud83d\\ude001234567"}', emoji)).m).toBe('[redacted]');
  });

  it('a JSON-escaped secret is cut and the body stays JSON of the same value', () => {
    const body = '{"m":"bad k3y\\u002B1234567 \\"q\\" \\\\u0041"}';
    const out = redactBody(body, ['k3y+1234567']);
    expect(JSON.parse(out)).toEqual({ m: 'bad [redacted] "q" \\u0041' });
  });

  // The review of b91943a: one regular expression per secret, of every form, grew past V8's limit
  // for a long secret (a long query value, percent-encoded twice): redaction threw a SyntaxError
  // that quoted the secret. And its cost was text × secret. Now a split per form and one linear pass.
  it('a long secret against a long body with escapes: no throw, and linear', () => {
    const secret = 'B'.repeat(20_000);
    const secrets = requestSecrets(`https://h.test/v1?token=${'你'.repeat(2_000)}`, [
      new Headers({ authorization: `Bearer ${secret}` }),
    ]);
    const body = `{"m":"${'\\B'.repeat(32_000)} ${secret}"}`;
    const started = performance.now();
    const out = redactBody(body, secrets);
    expect(out).not.toContain(secret);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a secret with regular-expression characters is matched literally, never as a pattern', () => {
    expect(redactSecrets('x (a-b|c) y a-b', ['(a-b|c)'])).toBe('x [redacted] y a-b');
    expect(redactSecrets('1.2.3 and 1x2x3', ['1.2.3'])).toBe('[redacted] and 1x2x3');
  });
});

// The second review: what a server reports after a 200 (an error event in the stream, a token
// count answer) was never redacted; header names whose words run together were no credential's;
// a short secret right after a JSON control escape, and a "key" that is a JSON literal.
describe('secrets quoted after a 200', () => {
  const servers = useTranscriptServer();
  const KEY = 'sk-default-key-123456';

  it.each([
    [
      'openai',
      `data: ${JSON.stringify({ error: { message: `Invalid key ${KEY}`, type: 'auth' } })}\n\n`,
      (url: string) => openai('gpt-4o-mini', { baseURL: `${url}/v1`, apiKey: KEY, retry: false }),
    ],
    [
      'anthropic',
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `Invalid key ${KEY}` } })}\n\n`,
      (url: string) => anthropic('claude-sonnet-4-5', { baseURL: url, apiKey: KEY, retry: false }),
    ],
  ] as const)('%s: an error event in the stream', async (_name, event, model) => {
    const server = await servers.start(() => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      chunks: [event],
    }));
    const { error } = await settle(model(server.url).stream({ messages: 'hi' }));
    expect(ApiError.is(error)).toBe(true);
    expect((error as Error).message).toContain('Invalid key [redacted]');
    expect(shown(error)).not.toContain(KEY);
  });

  it.each([
    ['not JSON', `upstream said: bad key ${KEY}`],
    ['JSON without the count', JSON.stringify({ error: `bad key ${KEY}` })],
  ])('countTokens: an answer %s', async (_name, answer) => {
    const server = await servers.start(() => ({ status: 200, chunks: [answer] }));
    const model = anthropic('claude-sonnet-4-5', { baseURL: server.url, apiKey: KEY, retry: false });
    const error = await model.countTokens!({ messages: 'hi' }).catch((failure: unknown) => failure);
    expect(StreamParseError.is(error)).toBe(true);
    expect(shown(error)).not.toContain(KEY);
  });

  it('countTokens: an answer past the cap is a StreamLimitError, not a string too long', async () => {
    const server = await servers.start(() => ({
      status: 200,
      chunks: Array.from({ length: 20 }, () => ' '.repeat(65_536)),
    }));
    const model = anthropic('claude-sonnet-4-5', { baseURL: server.url, apiKey: KEY, retry: false });
    const error = await model.countTokens!({ messages: 'hi' }).catch((failure: unknown) => failure);
    expect(StreamLimitError.is(error)).toBe(true);
  });
});

describe('requestSecrets: names and tokens from the second review', () => {
  it('header names whose words run together', () => {
    const names = [
      'x-authtoken',
      'x-accesstoken',
      'x-apitoken',
      'authentication',
      'x-secretkey',
      'x-clientsecret',
      'x-authkey',
      'x-api-keys',
      'x-vercel-protection-bypass',
    ];
    const headers = new Headers(names.map((name, i): [string, string] => [name, `value-${i}-abcdefgh`]));
    expect(requestSecrets('https://h.test/', [headers])).toEqual(
      expect.arrayContaining(names.map((_name, i) => `value-${i}-abcdefgh`)),
    );
    const plain = new Headers({ 'x-design': 'abcdefg', 'x-monkey': 'abcdefg', 'x-author': 'abcdefg' });
    expect(requestSecrets('https://h.test/', [plain])).toEqual([]);
  });

  it('a short secret right after a JSON control escape', () => {
    const secrets = requestSecrets('https://h.test/v1?key=k-42x', []);
    expect(redactBody('{"m":"Invalid key:\\nk-42x and\\tk-42x"}', secrets)).toBe(
      '{"m":"Invalid key:\\n[redacted] and\\t[redacted]"}',
    );
  });

  it('a "key" that is a JSON literal does not break the JSON of the body', () => {
    const secrets = requestSecrets('https://h.test/', [new Headers({ authorization: 'Bearer null' })]);
    const body = '{"error":{"message":"Incorrect API key","param":null,"code":"invalid_api_key"}}';
    expect(redactBody(body, secrets)).toBe(body);
  });

  it("a scheme's parameters by their own names: SigV4's Signature quoted alone", () => {
    const authorization =
      'AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE7/20261126/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7';
    const secrets = requestSecrets('https://h.test/', [new Headers({ authorization })]);
    expect(
      redactSecrets(
        'The request signature we calculated does not match 5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7 for AKIAEXAMPLE7/20261126/us-east-1/bedrock/aws4_request; signed content-type;host;x-amz-date',
        secrets,
      ),
    ).toBe(
      'The request signature we calculated does not match [redacted] for [redacted]; signed content-type;host;x-amz-date',
    );
  });
});

// The third review: redactError left `errorType` (a provider's own text) and the `cause` chain,
// and threw on a frozen error, which hung the stream until its idle timeout.
describe('redactError', () => {
  const KEY = 'sk-default-key-123456';

  it("every string field, the cause chain and an AggregateError's errors", () => {
    const error = new ApiError(`bad ${KEY}`, {
      status: 401,
      provider: 'p',
      errorType: `type ${KEY}`,
      body: `{"m":"${KEY}"}`,
      cause: new SyntaxError(`Unexpected token in JSON at ${KEY}`),
    });
    const all = new AggregateError([new Error(`one ${KEY}`)], `all ${KEY}`);
    expect(shown(redactError(error, [KEY]))).not.toContain(KEY);
    expect(shown(redactError(all, [KEY]))).not.toContain(KEY);
    expect(error.errorType).toBe('type [redacted]');
  });

  it('a frozen error, a getter-only message, a cycle: no throw, and no secret in what is passed on', () => {
    const frozen = Object.freeze(new Error(`proxy refused ${KEY}`));
    const passed = redactError(frozen, [KEY]);
    expect(passed.message).toBe('proxy refused [redacted]');
    const getter = Object.defineProperty(new Error('x'), 'message', { get: () => `got ${KEY}` });
    expect(redactError(getter, [KEY]).message).toBe('got [redacted]');
    const cyclic = new Error(`a ${KEY}`) as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    expect(shown(redactError(cyclic, [KEY]))).not.toContain(KEY);
  });

  it('through the provider pipeline: a frozen error from the host fetch on a retry ends the stream at once', async () => {
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      if (calls === 1) return new Response('{"error":{"message":"oops"}}', { status: 500 });
      throw Object.freeze(
        new ApiError(`proxy refused request with ${KEY}`, { status: 502, provider: 'openai' }),
      );
    };
    const model = openai('gpt-4o-mini', {
      baseURL: 'http://h.test/v1',
      apiKey: KEY,
      fetch,
      timeoutMs: 60_000,
      retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 2 },
    });
    const { error } = await settle(model.stream({ messages: 'hi' }));
    expect(calls).toBe(2);
    expect(shown(error)).not.toContain(KEY);
  });
});

// The third review: fromSSE cut secrets only from an error answer, not from what the server
// reported in a 200 stream; and a model's malformed tool call (its id and name) reached browsers.
describe('fromSSE and publicError', () => {
  const servers = useTranscriptServer();
  const TOKEN = 'tok-0123456789abcdef';

  it.each([
    [
      'event: error',
      `event: error\ndata: ${JSON.stringify({ name: 'ApiError', code: 'x', message: `bad token ${TOKEN}` })}\n\n`,
    ],
    ['an event that is not JSON', `id: 1\ndata: bad token ${TOKEN}\n\n`],
  ])('fromSSE: %s', async (_name, body) => {
    const server = await servers.start(() => ({ status: 200, chunks: [body] }));
    const { error } = await settle(
      fromSSE(`${server.url}/run?token=${TOKEN}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
        maxReconnects: 0,
      }),
    );
    expect(error).toBeInstanceOf(Error);
    expect(shown(error)).not.toContain(TOKEN);
  });

  it("a model's malformed tool call or a stream that does not parse: a generic message for browsers", () => {
    const parse = new ToolCallParseError({ raw: '{', toolName: `call ${TOKEN}`, toolCallId: TOKEN });
    expect(publicError(parse).message).toBe('The run failed (tool_call_parse_error)');
    expect(publicError(new StreamParseError(`bad ${TOKEN}`, TOKEN)).message).not.toContain(TOKEN);
  });
});

// The fourth review: fromSSE cut only the secrets of the connection that failed (a resumed one
// goes to Content-Location, without the first request's ?token=); redactError could still throw
// (a revoked Proxy in a field), lost a frozen error's class, left a frozen error inside an
// AggregateError, cut the library's own fields (provider 'ollama' for Ollama's placeholder key),
// and a query's plain ids counted as secrets.
describe('the fourth review', () => {
  const servers = useTranscriptServer();
  const TOKEN = 'tok_ABCDEFGHIJKLMNOP';
  const KEY = 'sk-default-key-123456';

  it("fromSSE: a resumed connection's server quoting the first request's token", async () => {
    const server = await servers.start((_request, index) =>
      index === 0
        ? {
            status: 200,
            headers: { 'content-type': 'text/event-stream', 'content-location': '/runs/r1' },
            chunks: [`id: r1:1\ndata: {"type":"text-delta","text":"hi"}\n\n`],
          }
        : {
            status: 200,
            headers: { 'content-type': 'text/event-stream' },
            chunks: [
              `event: error\ndata: ${JSON.stringify({ name: 'X', code: 'c', message: `started with token=${TOKEN}` })}\n\n`,
            ],
          },
    );
    const { error } = await settle(fromSSE(`${server.url}/chat?token=${TOKEN}`, { retryMs: 10 }));
    expect(server.requests.length).toBe(2);
    expect(error).toBeInstanceOf(Error);
    expect(shown(error)).not.toContain(TOKEN);
  });

  it('a revoked Proxy in a field, the cause or the errors: no throw', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const field of ['extra', 'cause', 'errors']) {
      const error = Object.assign(new Error(`x ${KEY}`), { [field]: proxy });
      expect(() => redactError(error, [KEY])).not.toThrow();
      expect(redactError(error, [KEY]).message).toBe('x [redacted]');
    }
  });

  it('a frozen error keeps its class; a frozen error inside an AggregateError is cut', () => {
    const limited = Object.freeze(
      new RateLimitError(`slow down ${KEY}`, { status: 429, provider: 'openai' }),
    );
    const passed = redactError(limited, [KEY]);
    expect(RateLimitError.is(passed)).toBe(true);
    expect(passed.message).toBe('slow down [redacted]');
    expect(passed.status).toBe(429);
    const all = new AggregateError([Object.freeze(new Error(`inner ${KEY}`))], 'all');
    expect(shown(redactError(all, [KEY]))).not.toContain(KEY);
  });

  it("the library's own fields stay, and a key equal to the provider's name is none to its error", () => {
    const error = new ApiError('ollama stream error: model not found', { status: 404, provider: 'ollama' });
    const passed = redactError(error, ['ollama', 'ApiError', 'api_error']);
    expect(passed).toMatchObject({ name: 'ApiError', code: 'api_error', provider: 'ollama' });
    expect(passed.message).toBe('ollama stream error: model not found');
  });

  it("a query's plain parameters are no secrets; OAuth's code is", () => {
    const secrets = requestSecrets(
      'https://h.test/runs?id=3f9a1c2e-0b7d-4e55-9a61-2c8d7e4b1a90&api-version=2024-10-21&code=c0de',
      [],
    );
    expect(secrets).toEqual(['c0de']);
  });

  it("the part of a secret V8's JSON SyntaxError quotes before cutting it short", () => {
    let cause: unknown;
    try {
      JSON.parse(`bad ${KEY} and more text after it`);
    } catch (error) {
      cause = error;
    }
    const error = new StreamParseError('not JSON', '', { cause });
    expect(String((cause as Error).message)).toContain('"...');
    expect(shown(redactError(error, [KEY]))).not.toMatch(/sk-d/);
  });
});

// The fifth review: a frozen error kept a secret in any field but its message, and in a frozen
// cause; `code` and `ticket` as words of a name made zip codes and ticket ids secrets.
describe('the fifth review', () => {
  const KEY = 'sk-default-key-123456';

  it('a frozen error: every field cut, a frozen cause too', () => {
    const body = Object.freeze(new ApiError('bad', { status: 401, provider: 'p', body: `k ${KEY}` }));
    expect(shown(redactError(body, [KEY]))).not.toContain(KEY);
    const nested = Object.freeze(
      Object.assign(new ApiError(`outer ${KEY}`, { status: 401, provider: 'p' }), {
        cause: Object.freeze(new Error(`inner ${KEY}`)),
      }),
    );
    const passed = redactError(nested, [KEY]);
    expect(ApiError.is(passed)).toBe(true);
    expect(shown(passed)).not.toContain(KEY);
  });

  it('code and ticket count only as whole names', () => {
    const secrets = requestSecrets(
      'https://h.test/?zip_code=90210&ticket_id=12345&promo_code=SUMMER2024&code=c0de&oauth_code=oc0de&ticket=t1ck',
      [new Headers({ 'x-region-code': 'eu-west-1' })],
    );
    expect(secrets).toEqual(expect.arrayContaining(['c0de', 'oc0de', 't1ck']));
    expect(secrets).not.toContain('90210');
    expect(secrets).not.toContain('12345');
    expect(secrets).not.toContain('SUMMER2024');
    expect(secrets).not.toContain('eu-west-1');
  });
});
