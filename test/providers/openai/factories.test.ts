import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InvalidRequestError, RxAgentError } from '../../../src/index.ts';
import {
  AZURE_OPENAI_API_VERSION,
  azureOpenAI,
  openai,
  openaiCompatible,
} from '../../../src/providers/openai/index.ts';
import { openAICapabilities } from '../../../src/providers/openai/openai-capabilities.ts';
import { startTranscriptServer, type TranscriptServer } from '../../support/transcript-server.ts';
import { fixture } from './helpers.ts';

let server: TranscriptServer;
beforeAll(async () => {
  server = await startTranscriptServer(() => ({ chunks: [fixture('text.sse')] }));
});
afterAll(() => server.close());
afterEach(() => {
  vi.unstubAllEnvs();
});

const last = () => {
  const request = server.requests.at(-1);
  if (!request) throw new Error('no request');
  return request;
};

/** A real fetch that sends every request to the transcript server, remembering the URL it was meant for. */
function redirectingFetch(seen: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    seen.push(url.href);
    const target = new URL(server.url);
    url.protocol = target.protocol;
    url.host = target.host;
    return fetch(input instanceof Request ? new Request(url, input) : url, init);
  };
}

describe('openai()', () => {
  it('reads OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_ORG_ID and OPENAI_PROJECT_ID', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env');
    vi.stubEnv('OPENAI_BASE_URL', `${server.url}/env/v1/`);
    vi.stubEnv('OPENAI_ORG_ID', 'org-1');
    vi.stubEnv('OPENAI_PROJECT_ID', 'proj-1');
    const model = openai('gpt-4o-mini', { retry: false });
    expect(model).toMatchObject({ provider: 'openai', modelId: 'gpt-4o-mini' });
    await model.complete({ messages: 'hi' });
    expect(last().url).toBe('/env/v1/chat/completions');
    expect(last().headers).toMatchObject({
      authorization: 'Bearer sk-env',
      'openai-organization': 'org-1',
      'openai-project': 'proj-1',
    });
  });

  it('options win over the environment; custom headers are sent', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env');
    await openai('gpt-4o', {
      apiKey: 'sk-option',
      baseURL: `${server.url}/opt`,
      headers: { 'x-trace': 't1' },
      retry: false,
    }).complete({ messages: 'hi' });
    expect(last().url).toBe('/opt/chat/completions');
    expect(last().headers).toMatchObject({ authorization: 'Bearer sk-option', 'x-trace': 't1' });
  });

  it('without a key: InvalidRequestError naming the option and the variable, nothing sent', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const sent = server.requests.length;
    const error = await openai('gpt-4o', { baseURL: server.url })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(InvalidRequestError.is(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'invalid_request',
      provider: 'openai',
      option: 'apiKey',
      environmentVariable: 'OPENAI_API_KEY',
    });
    expect((error as Error).message).toBe('openai: no API key: pass the apiKey option or set OPENAI_API_KEY');
    expect(server.requests).toHaveLength(sent);
  });

  it('defaults to api.openai.com', async () => {
    vi.stubEnv('OPENAI_BASE_URL', '');
    const seen: string[] = [];
    await openai('gpt-4o', { apiKey: 'k', fetch: redirectingFetch(seen), retry: false }).complete({
      messages: 'hi',
    });
    expect(seen).toEqual(['https://api.openai.com/v1/chat/completions']);
  });

  it('maxTokensField can be switched to max_tokens', async () => {
    await openai('gpt-4o', {
      baseURL: server.url,
      apiKey: 'k',
      maxTokensField: 'max_tokens',
      retry: false,
    }).complete({
      messages: 'hi',
      maxOutputTokens: 9,
    });
    expect(last().json).toMatchObject({ max_tokens: 9 });
  });
});

describe('openaiCompatible()', () => {
  it('names the provider, sends max_tokens and query parameters, assumes no price', async () => {
    const model = openaiCompatible('llama3.2', {
      baseURL: `${server.url}/v1/`,
      name: 'ollama',
      apiKey: 'ollama-key',
      queryParams: { tenant: 'a b' },
      retry: false,
    });
    const response = await model.complete({ messages: 'hi', maxOutputTokens: 20 });
    expect(response.provider).toBe('ollama');
    expect(response.cost).toBeUndefined();
    expect(last().url).toBe('/v1/chat/completions?tenant=a+b');
    expect(last().headers.authorization).toBe('Bearer ollama-key');
    expect(last().json).toMatchObject({
      model: 'llama3.2',
      max_tokens: 20,
      stream_options: { include_usage: true },
    });
  });

  it('includeUsage: false leaves stream_options out; no key, no Authorization', async () => {
    await openaiCompatible('m', { baseURL: server.url, includeUsage: false, retry: false }).complete({
      messages: 'hi',
    });
    expect(last().json).not.toHaveProperty('stream_options');
    expect(last().headers.authorization).toBeUndefined();
  });

  it('a price gives a cost; capabilities default and can be overridden', async () => {
    const model = openaiCompatible('local', {
      baseURL: server.url,
      price: { inputPerMTok: 1, outputPerMTok: 2 },
      capabilities: { vision: true },
      retry: false,
    });
    expect(model.capabilities).toEqual({
      streaming: true,
      tools: true,
      vision: true,
      json: true,
      reasoning: false,
    });
    expect((await model.complete({ messages: 'hi' })).cost?.totalUsd).toBeCloseTo((12 + 18) / 1e6, 12);
    expect(openaiCompatible('local', { baseURL: server.url }).provider).toBe('openai-compatible');
  });

  it('requires a baseURL', () => {
    expect(() => openaiCompatible('m', {} as never)).toThrow(RxAgentError);
    expect(() => openaiCompatible('m', { baseURL: '' })).toThrow(/baseURL/);
  });
});

describe('azureOpenAI()', () => {
  it('deployment URL, api-key header, default api-version, max_completion_tokens', async () => {
    const model = azureOpenAI('my-gpt4o', {
      baseURL: `${server.url}/openai`,
      apiKey: 'az-key',
      retry: false,
    });
    const response = await model.complete({ messages: 'hi', maxOutputTokens: 3 });
    expect(response.provider).toBe('azure-openai');
    expect(last().url).toBe(
      `/openai/deployments/my-gpt4o/chat/completions?api-version=${AZURE_OPENAI_API_VERSION}`,
    );
    expect(last().headers['api-key']).toBe('az-key');
    expect(last().headers.authorization).toBeUndefined();
    expect(last().json).toMatchObject({ model: 'my-gpt4o', max_completion_tokens: 3 });
  });

  it('resource → https://{resource}.openai.azure.com/openai; apiVersion option', async () => {
    const seen: string[] = [];
    await azureOpenAI('gpt-4o', {
      resource: 'contoso',
      apiVersion: '2025-01-01-preview',
      apiKey: 'k',
      fetch: redirectingFetch(seen),
      retry: false,
    }).complete({ messages: 'hi' });
    expect(seen).toEqual([
      'https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2025-01-01-preview',
    ]);
  });

  it('reads AZURE_OPENAI_API_KEY, AZURE_OPENAI_RESOURCE_NAME, AZURE_OPENAI_ENDPOINT and OPENAI_API_VERSION', async () => {
    vi.stubEnv('AZURE_OPENAI_API_KEY', 'env-key');
    vi.stubEnv('AZURE_OPENAI_RESOURCE_NAME', 'fabrikam');
    vi.stubEnv('OPENAI_API_VERSION', '2024-06-01');
    const seen: string[] = [];
    await azureOpenAI('dep', { fetch: redirectingFetch(seen), retry: false }).complete({ messages: 'hi' });
    expect(seen.at(-1)).toBe(
      'https://fabrikam.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2024-06-01',
    );
    expect(last().headers['api-key']).toBe('env-key');

    vi.stubEnv('AZURE_OPENAI_RESOURCE_NAME', '');
    vi.stubEnv('AZURE_OPENAI_ENDPOINT', 'https://northwind.openai.azure.com/');
    await azureOpenAI('dep', { fetch: redirectingFetch(seen), retry: false }).complete({ messages: 'hi' });
    expect(seen.at(-1)).toBe(
      'https://northwind.openai.azure.com/openai/deployments/dep/chat/completions?api-version=2024-06-01',
    );
  });

  it('without resource, baseURL or environment: RxAgentError', () => {
    vi.stubEnv('AZURE_OPENAI_RESOURCE_NAME', '');
    vi.stubEnv('AZURE_OPENAI_ENDPOINT', '');
    expect(() => azureOpenAI('dep')).toThrow(RxAgentError);
  });

  it('an Entra ID token in headers instead of a key', async () => {
    vi.stubEnv('AZURE_OPENAI_API_KEY', '');
    await azureOpenAI('dep', {
      baseURL: server.url,
      headers: { authorization: 'Bearer entra-token' },
      retry: false,
    }).complete({ messages: 'hi' });
    expect(last().headers['api-key']).toBeUndefined();
    expect(last().headers.authorization).toBe('Bearer entra-token');
  });
});

describe('openAICapabilities', () => {
  it.each([
    ['gpt-4o-mini', { tools: true, vision: true, json: true, reasoning: false }],
    ['gpt-4.1-nano-2025-04-14', { tools: true, vision: true, json: true, reasoning: false }],
    ['gpt-5', { tools: true, vision: true, json: true, reasoning: true }],
    ['gpt-5-chat-latest', { tools: true, vision: true, json: true, reasoning: false }],
    ['o1', { tools: true, vision: true, json: true, reasoning: true }],
    ['o1-mini', { tools: false, vision: false, json: false, reasoning: true }],
    ['o3-mini', { tools: true, vision: false, json: true, reasoning: true }],
    ['o4-mini', { tools: true, vision: true, json: true, reasoning: true }],
    ['gpt-3.5-turbo', { tools: true, vision: false, json: true, reasoning: false }],
    ['openai/GPT-4o', { tools: true, vision: true, json: true, reasoning: false }],
    ['llama3.2', { tools: true, vision: false, json: true, reasoning: false }],
  ])('%s', (id, expected) => {
    expect(openAICapabilities(id)).toEqual({ streaming: true, ...expected });
  });

  it('overrides win, undefined ones are ignored', () => {
    expect(openAICapabilities('o1-mini', { tools: true, vision: undefined } as never)).toMatchObject({
      tools: true,
      vision: false,
    });
    expect(openai('gpt-4o', { capabilities: { reasoning: true } }).capabilities.reasoning).toBe(true);
    expect(
      azureOpenAI('o3-mini', { baseURL: 'http://x', capabilities: { vision: true } }).capabilities,
    ).toMatchObject({
      vision: true,
      reasoning: true,
    });
  });
});
