import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, InvalidRequestError, NetworkError } from '../../src/index.ts';
import { fromSSE } from '../../src/http/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { settle } from '../support/settle.ts';
import { type Listening, listen } from './support/listen.ts';

// Review of issue 15 (night): fromSSE's errors kept secrets a careless server quoted back in ways
// the first fix did not cover.
const shown = (error: unknown) => inspect(error, { depth: Infinity, showHidden: true });

/** A careless server: its 403 quotes the URL it was asked for and every header it got. */
let server: Listening;
let bodyBytes = 0;
const GOOD = 'good-token-0123456';
beforeAll(async () => {
  server = await listen((req, res) => {
    if (req.url?.startsWith('/huge')) {
      // An error body without end: a client must stop reading it.
      res.writeHead(500, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      const pump = () => {
        while (res.write(chunk)) bodyBytes += chunk.length;
      };
      res.on('drain', pump);
      pump();
      return;
    }
    if (req.url?.startsWith('/auth')) {
      if (req.headers.authorization !== `Bearer ${GOOD}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `bad ${String(req.headers.authorization)}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('id: 1\ndata: {"type":"text-delta","text":"a"}\n\nevent: end\ndata: {}\n\n');
      return;
    }
    if (req.url?.startsWith('/big') || req.url?.startsWith('/html')) {
      const escaped = String(req.headers.authorization).replaceAll('+', '\\u002B').replaceAll('/', '\\/');
      res.writeHead(403, { 'content-type': req.url.startsWith('/big') ? 'application/json' : 'text/html' });
      res.end(
        req.url.startsWith('/big')
          ? `{"error":{"message":"bad ${escaped}","echo":"${'x'.repeat(70_000)}"}}`
          : `<script>var auth = "${escaped}";</script>`,
      );
      return;
    }
    if (req.url?.startsWith('/reqid')) {
      const id = String(req.headers['x-request-id']);
      res.writeHead(500, { 'content-type': 'text/plain', 'x-request-id': id }).end(`internal error in ${id}`);
      return;
    }
    if (req.url?.startsWith('/located')) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'content-location': `http://[${String(req.headers['x-api-key'])}]/runs/1`,
      });
      res.end('id: 1\ndata: {"type":"text-delta","text":"a"}\n\nevent: end\ndata: {}\n\n');
      return;
    }
    const quoted = `rejected ${req.url} with ${Object.values(req.headers).join(', ')}`;
    const escaped = JSON.stringify({ error: { message: quoted } })
      .replaceAll('+', '\\u002B')
      .replaceAll('/', '\\/');
    res.writeHead(403, { 'content-type': 'application/json', 'x-echo': quoted }).end(escaped);
  });
});
afterAll(() => server.close());

const failure = async (url: string, init: Parameters<typeof fromSSE>[1] = {}) =>
  (await settle(fromSSE(url, { maxReconnects: 0, ...init }))).error;

describe('fromSSE keeps no secret a server quotes back', () => {
  it('a query token of a relative URL (resolved by the page’s fetch)', async () => {
    const token = 'tok-0123456789abcdef';
    const error = await failure(`/api/runs/1/events?token=${token}`, {
      fetch: (input, init) => fetch(new URL(String(input), server.url), init),
    });
    expect(ApiError.is(error)).toBe(true);
    expect(shown(error)).not.toContain(token);
  });

  it('a query key that needs percent-encoding, in the body and a header', async () => {
    const key = 'sk-ab+cd/ef==';
    const error = await failure(`${server.url}/x?key=${encodeURIComponent(key)}`);
    expect(ApiError.is(error)).toBe(true);
    expect(shown(error)).not.toContain(encodeURIComponent(key));
    expect(shown(error)).not.toContain(key);
  });

  it('a key the body writes with JSON escapes (\\u002B, \\/)', async () => {
    const key = 'k3y+Abc/Def=0123';
    const error = await failure(`${server.url}/x`, { headers: { authorization: `Bearer ${key}` } });
    expect(ApiError.is(error)).toBe(true);
    expect((error as ApiError).message).toContain('[redacted]');
    expect(shown(error)).not.toContain(key);
    expect((error as ApiError).body).not.toContain('k3y\\u002BAbc');
  });

  it('a cookie and an application’s own auth header', async () => {
    const cookie = 'session=s3cr3t-cookie-value';
    const token = 'tok-s3cr3t-12345';
    const error = await failure(`${server.url}/x`, { headers: { cookie, 'x-auth-token': token } });
    expect(ApiError.is(error)).toBe(true);
    expect(shown(error)).not.toContain('s3cr3t-cookie-value');
    expect(shown(error)).not.toContain(token);
  });

  it('a header value fetch refuses is an InvalidRequestError naming the header, not its value', async () => {
    const error = await failure(`${server.url}/x`, {
      headers: { authorization: 'Bearer sk-live-abcdef123456\nX' },
    });
    expect(InvalidRequestError.is(error)).toBe(true);
    expect((error as Error).message).toContain('authorization');
    expect(shown(error)).not.toContain('sk-live-abcdef123456');
  });

  it('a malformed Content-Location quoting the key is ignored, not a raw TypeError', async () => {
    const key = 'sk-located-0a1b2c3d';
    const result = await settle(fromSSE(`${server.url}/located`, { headers: { 'x-api-key': key } }));
    expect(result.error).toBeUndefined();
    expect(result.events).toEqual([{ type: 'text-delta', text: 'a' }]);
  });

  it('an error body without end is read up to a bound, then cut off', async () => {
    const error = await failure(`${server.url}/huge`);
    expect(ApiError.is(error)).toBe(true);
    expect((error as ApiError).status).toBe(500);
    expect(bodyBytes).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('fromSSE sends the caller’s headers as given (review of the first fix)', () => {
  it('a Map of headers, and a fetch wrapper that spreads init.headers, still authenticate', async () => {
    const viaMap = await settle(
      fromSSE(`${server.url}/auth`, { headers: new Map([['authorization', `Bearer ${GOOD}`]]) as never }),
    );
    expect(viaMap.error).toBeUndefined();
    const wrapped = await settle(
      fromSSE(`${server.url}/auth`, {
        headers: { authorization: `Bearer ${GOOD}` },
        fetch: (input, init) =>
          fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-csrf': 't' } }),
      }),
    );
    expect(wrapped.error).toBeUndefined();
    expect(wrapped.events).toEqual([{ type: 'text-delta', text: 'a' }]);
  });

  it('a Response already fetched: the key in init.headers is still cut from its error', async () => {
    const key = 'sk-given-0a1b2c3d4e';
    const answer = await fetch(`${server.url}/auth`, { headers: { authorization: `Bearer ${key}` } });
    const error = (
      await settle(fromSSE(answer, { headers: { authorization: `Bearer ${key}` }, maxReconnects: 0 }))
    ).error;
    expect(ApiError.is(error)).toBe(true);
    expect(shown(error)).not.toContain(key);
  });

  it('a Response already fetched with a header fetch would refuse: InvalidRequestError, not a raw TypeError', async () => {
    const answer = await fetch(`${server.url}/auth`, { headers: { authorization: `Bearer ${GOOD}` } });
    const error = (
      await settle(
        fromSSE(answer, { headers: { authorization: 'Bearer sk-live-abcdef123456\nX' }, maxReconnects: 1 }),
      )
    ).error;
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(shown(error)).not.toContain('sk-live-abcdef123456');
  });

  it('a JSON-escaped key in a body cut short at the read cap, or in HTML, is cut', async () => {
    const key = 'k3y+Abc/Def=0123';
    for (const path of ['/big', '/html']) {
      const error = await failure(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      expect(ApiError.is(error)).toBe(true);
      // The body as kept (inspect would double the backslash).
      expect((error as ApiError).body).toContain('[redacted]');
      expect((error as ApiError).body).not.toMatch(/k3y\\u002BAbc/i);
      expect(shown(error)).not.toContain(key);
    }
  });

  it('a request id the server echoes back is kept', async () => {
    const error = await failure(`${server.url}/reqid`, { headers: { 'x-request-id': 'req-0123456789' } });
    expect(ApiError.is(error)).toBe(true);
    expect((error as ApiError).body).toBe('internal error in req-0123456789');
    expect((error as ApiError).headers?.get('x-request-id')).toBe('req-0123456789');
  });
});

describe('a provider keeps no key its error body writes with JSON escapes', () => {
  it('openai: a 403 quoting the Authorization header with \\u002B', async () => {
    const key = 'k3y+Abc/Def=0123';
    const error = (
      await settle(
        openai('gpt-4o-mini', { baseURL: server.url, apiKey: key, retry: false }).stream({ messages: 'hi' }),
      )
    ).error;
    expect(ApiError.is(error)).toBe(true);
    expect(shown(error)).not.toContain(key);
  });
});

describe('what fromSSE refuses is typed', () => {
  it('NetworkError stays the error of a refused connection', async () => {
    const error = await failure('http://127.0.0.1:9/x');
    expect(NetworkError.is(error)).toBe(true);
  });
});
