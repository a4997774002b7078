import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type ChatModel, RedirectRefusedError } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { bedrock } from '../../src/providers/bedrock/index.ts';
import { gemini } from '../../src/providers/gemini/index.ts';
import { ollama } from '../../src/providers/ollama/index.ts';
import { azureOpenAI, openai, openaiCompatible } from '../../src/providers/openai/index.ts';
import { settle } from '../support/settle.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const SECRET = 'sk-SECRET-4b1d';
const PROMPT = 'PROMPT-MARKER: my card is 4111 1111 1111 1111';

/** Each provider with its key: the header it travels in differs (authorization, x-api-key, …). */
const providers: [string, (baseURL: string) => ChatModel][] = [
  ['openai', (baseURL) => openai('gpt-4o-mini', { baseURL, apiKey: SECRET, retry: false })],
  [
    'openai-compatible',
    (baseURL) =>
      openaiCompatible('m', { baseURL, apiKey: SECRET, headers: { 'x-api-key': SECRET }, retry: false }),
  ],
  ['azure-openai', (baseURL) => azureOpenAI('gpt-4o', { baseURL, apiKey: SECRET, retry: false })],
  ['anthropic', (baseURL) => anthropic('claude-sonnet-4-5', { baseURL, apiKey: SECRET, retry: false })],
  ['gemini', (baseURL) => gemini('gemini-2.5-flash', { baseURL, apiKey: SECRET, retry: false })],
  ['ollama', (baseURL) => ollama('llama3.2', { baseURL, apiKey: SECRET, retry: false })],
  [
    'bedrock (SigV4)',
    (baseURL) =>
      bedrock('amazon.nova-lite-v1:0', {
        baseURL,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: SECRET, sessionToken: SECRET },
        retry: false,
      }),
  ],
];

describe('a request that carries a key never follows a redirect', () => {
  const servers = useTranscriptServer();

  for (const status of [307, 308]) {
    it.each(providers)(
      `%s: HTTP ${status} to another origin is refused; that origin sees nothing`,
      async (_, create) => {
        const other = await servers.start([{ chunks: ['{}'] }]);
        const endpoint = await servers.start([
          { status, headers: { location: `${other.url}/collect?from=redirect` }, chunks: ['moved'] },
        ]);
        const { events, error } = await settle(create(endpoint.url).stream({ messages: PROMPT }));

        expect(events).toEqual([]);
        expect(RedirectRefusedError.is(error)).toBe(true);
        expect(error).toMatchObject({ status, code: 'redirect_refused', location: `${other.url}/collect` });
        expect(endpoint.requests).toHaveLength(1);
        expect(other.requests).toHaveLength(0);
        const shown = inspect(error, { depth: 10, showHidden: true });
        expect(shown).not.toContain(SECRET);
        expect(shown).not.toContain('PROMPT-MARKER');
      },
    );
  }

  it('refuses a redirect to the same origin too, naming where it pointed', async () => {
    const endpoint = await servers.start([{ status: 301, headers: { location: '/v2/chat/completions' } }]);
    const { error } = await settle(
      openai('gpt-4o-mini', { baseURL: endpoint.url, apiKey: SECRET, retry: false }).stream({
        messages: 'hi',
      }),
    );
    expect(RedirectRefusedError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      `openai: ${endpoint.url}/chat/completions answered with a redirect (HTTP 301 to ${endpoint.url}/v2/chat/completions), ` +
        'which is not followed: it would carry the API key and the prompt to the new address; set baseURL to the final address',
    );
    expect(endpoint.requests).toHaveLength(1);
  });

  it('is not retried: the same request would be redirected again', async () => {
    const other = await servers.start([{ chunks: ['{}'] }]);
    const endpoint = await servers.start([{ status: 307, headers: { location: other.url } }]);
    const model = anthropic('claude-sonnet-4-5', {
      baseURL: endpoint.url,
      apiKey: SECRET,
      retry: { maxRetries: 3, initialDelayMs: 1 },
    });
    const { error } = await settle(model.stream({ messages: 'hi' }));
    expect(RedirectRefusedError.is(error)).toBe(true);
    expect(endpoint.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });
});
