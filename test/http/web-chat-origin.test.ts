import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoModel } from '../../examples/web-chat/demo-model.ts';
import { inProcessChat, startWebChat, type WebChat } from '../../examples/web-chat/web-chat.ts';

/** A raw HTTP request, with the Host and Origin headers a browser on another site would send. */
function raw(url: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the web chat and other sites', () => {
  let chat: WebChat;
  let port: string;
  beforeAll(async () => {
    chat = await startWebChat(inProcessChat(demoModel(1)));
    port = new URL(chat.url).port;
  });
  afterAll(() => chat?.close());

  const message = JSON.stringify({ message: 'Tell me a story', sessionId: 'other-site' });

  it('refuses a page of another site that posts to it (a form or text/plain fetch needs no preflight)', async () => {
    const answer = await raw(
      chat.url,
      '/api/chat',
      { 'content-type': 'text/plain', origin: 'https://evil.example' },
      message,
    );
    expect(answer.status).toBe(403);
  });

  it('refuses a host name that is not this machine (DNS rebinding: evil.example resolved to 127.0.0.1)', async () => {
    const host = `evil.example:${port}`;
    const page = await raw(chat.url, '/', { host });
    expect(page.status).toBe(403);
    const post = await raw(
      chat.url,
      '/api/chat',
      { host, origin: `http://${host}`, 'content-type': 'application/json' },
      message,
    );
    expect(post.status).toBe(403);
  });

  it('serves its own page and its posts, by 127.0.0.1 or localhost, on any port (a proxy in front)', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost:9999']) {
      expect((await raw(chat.url, '/', { host })).status).toBe(200);
      const post = await raw(
        chat.url,
        '/api/chat',
        { host, origin: `http://${host}`, 'content-type': 'application/json' },
        message,
      );
      expect(post.status).toBe(201);
    }
  });
});
