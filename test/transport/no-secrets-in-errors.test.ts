import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiError, type ChatModel, InvalidRequestError, NetworkError } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { gemini } from '../../src/providers/gemini/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { networkFailure } from '../../src/transport/network-failure.ts';
import { endpointOf, withoutUrlSecrets } from '../../src/transport/safe-url.ts';
import { settle } from '../support/settle.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const KEY = 'sk-KEY-0c7e2a';
const PASSWORD = 'PASS-9f31';
const PROMPT = 'PROMPT-MARKER: the patient record';

/** Everything an error shows to a log: message, stack, every property and the whole cause chain. */
const shown = (error: unknown) => inspect(error, { depth: Infinity, showHidden: true });

function expectNoSecrets(error: unknown): void {
  const text = shown(error);
  for (const secret of [KEY, PASSWORD, PROMPT, 'PROMPT-MARKER']) expect(text).not.toContain(secret);
}

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

const ask = async (model: ChatModel) => (await settle(model.stream({ messages: PROMPT }))).error;

describe('no key, user:pass@ or request body in an error message or cause', () => {
  const servers = useTranscriptServer();

  it('connection refused: the message says why, with the code', async () => {
    const port = await closedPort();
    const error = await ask(
      anthropic('claude-sonnet-4-5', { baseURL: `http://127.0.0.1:${port}`, apiKey: KEY, retry: false }),
    );
    expect(NetworkError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      `anthropic: request to http://127.0.0.1:${port}/v1/messages failed: connection refused (ECONNREFUSED)`,
    );
    expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    expectNoSecrets(error);
  });

  it('a server that drops the connection before answering: the message says so', async () => {
    const server = createServer((request) => request.socket.destroy()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const error = await ask(
        gemini('gemini-2.5-flash', { baseURL: `http://127.0.0.1:${port}`, apiKey: KEY, retry: false }),
      );
      expect(NetworkError.is(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /failed: the server closed the connection \(UND_ERR_SOCKET\)$/,
      );
      expectNoSecrets(error);
    } finally {
      server.close();
    }
  });

  it('a base URL with user:pass@ is an InvalidRequestError naming only the origin; nothing is sent', async () => {
    const server = await servers.start([{ chunks: ['{}'] }]);
    const withCredentials = server.url.replace('http://', `http://apikey:${PASSWORD}@`);
    const error = await ask(
      openai('gpt-4o-mini', {
        baseURL: `${withCredentials}/v1`,
        apiKey: KEY,
        retry: { maxRetries: 3, initialDelayMs: 1 },
      }),
    );
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({ option: 'baseURL' });
    expect((error as Error).message).toBe(
      `openai: the request URL to ${server.url} carries a user name or password (user:pass@); ` +
        'send credentials in the apiKey or headers option instead',
    );
    expect(server.requests).toHaveLength(0);
    expectNoSecrets(error);
  });

  it('a key with a line break in a header: the header is named, never its value', async () => {
    const server = await servers.start([{ chunks: ['{}'] }]);
    const error = await ask(
      openai('gpt-4o-mini', { baseURL: server.url, apiKey: `${KEY}\nX-Injected: 1`, retry: false }),
    );
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
    expectNoSecrets(error);
  });

  it('an HTTP error keeps the response, never the request', async () => {
    const server = await servers.start([
      {
        status: 401,
        headers: { 'content-type': 'application/json' },
        chunks: [
          JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
        ],
      },
    ]);
    const error = await ask(openai('gpt-4o-mini', { baseURL: server.url, apiKey: KEY, retry: false }));
    expect(ApiError.is(error)).toBe(true);
    expect((error as Error).message).toBe('openai returned HTTP 401: Incorrect API key provided');
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expectNoSecrets(error);
  });
});

describe('networkFailure and the URL guards', () => {
  it("drops fetch's wrapper, and a message quoting a URL loses its user:pass@ and query", () => {
    const quoting = new TypeError(
      `Request cannot be constructed from a URL that includes credentials: https://apikey:${PASSWORD}@gw.test/v1?key=${KEY}`,
    );
    const error = networkFailure(
      'p',
      `https://apikey:${PASSWORD}@gw.test/v1/chat?key=${KEY}`,
      new TypeError('fetch failed', { cause: quoting }),
    );
    expect(error.message).toBe(
      'p: request to https://gw.test/v1/chat failed: TypeError: Request cannot be constructed from a URL that includes credentials: https://gw.test/v1',
    );
    expect((error.cause as Error).message).toBe(
      'Request cannot be constructed from a URL that includes credentials: https://gw.test/v1',
    );
    expectNoSecrets(error);
  });

  it('keeps the coded error deepest in the chain as the cause, and names an unknown code as it is', () => {
    const socket = Object.assign(new Error('boom'), { code: 'E_SOMETHING' });
    const error = networkFailure(
      'p',
      'http://127.0.0.1:1/x',
      new TypeError('fetch failed', { cause: socket }),
    );
    expect(error.message).toBe('p: request to http://127.0.0.1:1/x failed: failed (E_SOMETHING)');
    expect(error.cause).toBe(socket);
    expect(networkFailure('p', 'http://h.test/', 'a string').message).toBe(
      'p: request to http://h.test/ failed: failed',
    );
  });

  it('cuts relative and malformed URLs as text', () => {
    expect(endpointOf('/runs/1?token=abc#x')).toBe('/runs/1');
    expect(endpointOf(`https://u:${PASSWORD}@[bad/x?k=1`)).toBe('https://[bad/x');
    expect(endpointOf('/moved?x=1', 'https://a.test/v1/chat')).toBe('https://a.test/moved');
    expect(withoutUrlSecrets(`see http://u:${PASSWORD}@h.test/a?k=${KEY} and more`)).toBe(
      'see http://h.test/a and more',
    );
  });
});
