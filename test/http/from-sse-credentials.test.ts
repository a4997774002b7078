import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiError, RedirectRefusedError } from '../../src/index.ts';
import { fromSSE } from '../../src/http/index.ts';
import { settle } from '../support/settle.ts';
import { listen } from './support/listen.ts';

const KEY = 'sk-sse-KEY-5e2c91';

describe('fromSSE never carries the caller’s headers to another origin', () => {
  it('a 307 to another host is refused (RedirectRefusedError), the other host gets nothing', async () => {
    const seen: string[] = [];
    const other = await listen((req, res) => {
      seen.push(String(req.headers['x-api-key']));
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: 1\ndata: {"type":"done"}\n\n');
    });
    const first = await listen((_req, res) => res.writeHead(307, { location: `${other.url}/steal` }).end());
    try {
      const result = await settle(
        fromSSE(`${first.url}/runs/r1`, { headers: { 'x-api-key': KEY }, maxReconnects: 0 }),
      );
      expect(RedirectRefusedError.is(result.error)).toBe(true);
      expect(seen).toEqual([]);
    } finally {
      await Promise.all([first.close(), other.close()]);
    }
  });

  it('a Content-Location on another origin is not where a resume goes', async () => {
    const seen: string[] = [];
    const other = await listen((req, res) => {
      seen.push(String(req.headers.authorization));
      res.writeHead(404).end();
    });
    const resumedHere: string[] = [];
    const first = await listen((req, res) => {
      if (req.method === 'GET') {
        resumedHere.push(String(req.url));
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-location': `${other.url}/runs/r1` });
      res.write('id: 1\ndata: {"type":"text-delta","text":"a"}\n\n');
      setTimeout(() => req.socket.destroy(), 20);
    });
    try {
      await settle(
        fromSSE(`${first.url}/api/chat`, {
          method: 'POST',
          body: '{}',
          headers: { authorization: `Bearer ${KEY}` },
          maxReconnects: 1,
          retryMs: 1,
        }),
      );
      expect(seen).toEqual([]);
      expect(resumedHere).toEqual(['/api/chat']);
    } finally {
      await Promise.all([first.close(), other.close()]);
    }
  });

  it('a redirect or an error that echoes the caller’s key keeps it nowhere in the error', async () => {
    const shown = (error: unknown) => inspect(error, { depth: Infinity, showHidden: true });
    const server = await listen((req, res) => {
      const key = String(req.headers['x-api-key']);
      if (req.url === '/redirect') {
        res.writeHead(307, { location: `/elsewhere?k=${key}`, 'x-echo': `got ${key}` }).end();
        return;
      }
      res
        .writeHead(401, { 'content-type': 'application/json', 'x-echo': `got ${key}` })
        .end(JSON.stringify({ error: { message: `bad key ${key}` } }));
    });
    try {
      const options = { headers: { 'x-api-key': KEY }, maxReconnects: 0 };
      const redirected = (await settle(fromSSE(`${server.url}/redirect`, options))).error;
      expect(RedirectRefusedError.is(redirected)).toBe(true);
      expect(shown(redirected)).not.toContain(KEY);
      const refused = (await settle(fromSSE(`${server.url}/refused`, options))).error;
      expect(ApiError.is(refused)).toBe(true);
      expect((refused as ApiError).status).toBe(401);
      expect((refused as ApiError).message).toBe('bad key [redacted]');
      expect(shown(refused)).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });
});
