import { describe, expect, it } from 'vitest';
import { type ChatRequest, estimateTokens, system, user } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { bedrock } from '../../src/providers/bedrock/index.ts';
import { gemini } from '../../src/providers/gemini/index.ts';
import { fallback } from '../../src/models/index.ts';
import { ollama } from '../../src/providers/ollama/index.ts';
import { openai, openaiCompatible } from '../../src/providers/openai/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';
import { verifySigV4 } from './bedrock/verify-sigv4.ts';

const servers = useTranscriptServer();
const json = (value: unknown) => ({
  headers: { 'content-type': 'application/json' },
  chunks: [JSON.stringify(value)],
});
const request: ChatRequest = {
  system: 'Be terse.',
  messages: [system('Earlier: the user likes tea.'), user('How many tokens is this?')],
  tools: [{ name: 'get_weather', description: 'Weather.', parameters: { type: 'object', properties: {} } }],
  maxOutputTokens: 100,
  temperature: 0.2,
};

describe('Anthropic count_tokens', () => {
  it('POSTs the request without max_tokens, stream or sampling to /v1/messages/count_tokens', async () => {
    const server = await servers.start([json({ input_tokens: 421 })]);
    const model = anthropic('claude-sonnet-4-5', { baseURL: server.url, apiKey: 'sk-test' });
    expect(await model.countTokens?.(request)).toBe(421);
    const sent = server.requests[0];
    expect(sent?.url).toBe('/v1/messages/count_tokens');
    expect(sent?.headers['x-api-key']).toBe('sk-test');
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    const body = sent?.json as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['messages', 'model', 'system', 'tools']);
    expect(body['model']).toBe('claude-sonnet-4-5');
    expect(JSON.stringify(body['system'])).toContain('Be terse.');
    expect(model.contextWindow).toBe(200_000);
  });

  it('an error answer is the usual typed ApiError; a body without input_tokens a StreamParseError', async () => {
    const server = await servers.start([
      { status: 400, ...json({ type: 'error', error: { type: 'invalid_request_error', message: 'bad' } }) },
      json({ tokens: 3 }),
    ]);
    const model = anthropic('claude-sonnet-4-5', { baseURL: server.url, apiKey: 'sk-test', retry: false });
    await expect(model.countTokens?.(request)).rejects.toMatchObject({ name: 'ApiError', status: 400 });
    await expect(model.countTokens?.(request)).rejects.toMatchObject({ name: 'StreamParseError' });
  });

  it('the contextWindow option overrides the table', () => {
    expect(anthropic('claude-sonnet-4-5', { apiKey: 'k', contextWindow: 1_000_000 }).contextWindow).toBe(
      1_000_000,
    );
  });
});

describe('Gemini countTokens', () => {
  it('POSTs a generateContentRequest (contents, systemInstruction, tools) to {model}:countTokens', async () => {
    const server = await servers.start([json({ totalTokens: 57, promptTokensDetails: [] })]);
    const model = gemini('gemini-2.5-flash', { baseURL: server.url, apiKey: 'g-test' });
    expect(await model.countTokens?.(request)).toBe(57);
    const sent = server.requests[0];
    expect(sent?.url).toBe('/models/gemini-2.5-flash:countTokens');
    expect(sent?.headers['x-goog-api-key']).toBe('g-test');
    const inner = (sent?.json as { generateContentRequest: Record<string, unknown> }).generateContentRequest;
    expect(inner['model']).toBe('models/gemini-2.5-flash');
    expect(Object.keys(inner).sort()).toEqual(['contents', 'model', 'systemInstruction', 'tools']);
    expect(model.contextWindow).toBe(1_048_576);
  });
});

describe('Bedrock CountTokens', () => {
  const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
  const MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0';

  it('POSTs a signed { input: { converse } } to /model/{id}/count-tokens and reads inputTokens', async () => {
    const server = await servers.start([json({ inputTokens: 88 })]);
    const model = bedrock(MODEL, { baseURL: server.url, region: 'eu-west-1', credentials: creds });
    expect(await model.countTokens?.(request)).toBe(88);
    const sent = server.requests[0]!;
    expect(sent.url).toBe(`/model/${encodeURIComponent(MODEL)}/count-tokens`);
    expect(verifySigV4(sent, creds)).toMatchObject({ valid: true, region: 'eu-west-1', service: 'bedrock' });
    const converse = (sent.json as { input: { converse: Record<string, unknown> } }).input.converse;
    expect(Object.keys(converse).sort()).toEqual(['messages', 'system', 'toolConfig']);
    expect(model.contextWindow).toBe(200_000);
  });
});

describe('OpenAI and compatible servers: a tokenizer, else the documented estimate', () => {
  it('GPT-4o is counted with o200k_base over the body as sent, with the chat framing', async () => {
    const model = openai('gpt-4o', { apiKey: 'sk-test' });
    // 3 per message + role + content, 3 for the reply: "Hello world" is 2 tokens in o200k_base.
    expect(await model.countTokens?.({ messages: [user('Hello world')] })).toBe(3 + 1 + 2 + 3);
    const withTools = await model.countTokens?.(request);
    expect(withTools).toBeGreaterThan(20);
    expect(withTools).toBeLessThan(estimateTokens(request));
    expect(model.contextWindow).toBe(128_000);
  });

  it("a compatible server's own model gets the estimate; the window comes from the option", async () => {
    const model = openaiCompatible('llama-3.1-8b', {
      baseURL: 'http://127.0.0.1:9',
      name: 'local',
      contextWindow: 8192,
    });
    expect(await model.countTokens?.(request)).toBe(estimateTokens(request));
    expect(model.contextWindow).toBe(8192);
  });

  it('Ollama: the estimate plus 10%, and the window from num_ctx or the server default', async () => {
    expect(await ollama('llama3.1').countTokens?.(request)).toBe(Math.ceil(estimateTokens(request) * 1.1));
    expect(ollama('llama3.1').contextWindow).toBe(4096);
    expect(ollama('llama3.1', { options: { num_ctx: 32_768 } }).contextWindow).toBe(32_768);
  });
});

describe('fallback()', () => {
  it('a request must fit whichever model answers: the smallest window, the largest count', async () => {
    const small = ollama('llama3.1', { options: { num_ctx: 8192 } });
    const big = openai('gpt-4o', { apiKey: 'sk-test' });
    const model = fallback([big, small]);
    expect(model.contextWindow).toBe(8192);
    expect(await model.countTokens?.(request)).toBe(
      Math.max((await small.countTokens?.(request)) ?? 0, (await big.countTokens?.(request)) ?? 0),
    );
  });
});
