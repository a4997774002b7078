import { describe, expect, it } from 'vitest';
import { computeCost, user } from '../../../src/index.ts';
import { openai, openaiCompatible } from '../../../src/providers/openai/index.ts';
import { randomSplit } from '../../support/split.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { fixture } from './helpers.ts';

const servers = useTranscriptServer();
const compatible = (modelId: string, name: string, options: Parameters<typeof openaiCompatible>[1]) =>
  openaiCompatible(modelId, { retry: false, apiKey: 'k', ...options, name });

describe('OpenAI-compatible streams of real servers', () => {
  it('Gemini: parallel calls without index, one per chunk, stay two calls; thought signatures go back', async () => {
    const body = fixture('gemini-openai-parallel.sse');
    for (let seed = 1; seed <= 5; seed++) {
      const server = await servers.start([
        { chunks: randomSplit(body, seed, 48) },
        { chunks: [fixture('text.sse')] },
      ]);
      const model = compatible('gemini-3-pro-preview', 'gemini-openai', { baseURL: server.url });
      const response = await model.complete({ messages: 'Weather and time in Paris?' });
      expect(response.toolCalls).toEqual([
        { id: 'function-call-11111', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'function-call-22222', name: 'get_time', arguments: { tz: 'CET' } },
      ]);
      await model.complete({ messages: [user('Weather and time in Paris?'), response.message] });
      const sent = server.requests[1]?.json as { messages: { tool_calls?: unknown[] }[] };
      expect(sent.messages[1]?.tool_calls).toEqual([
        {
          id: 'function-call-11111',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          extra_content: { google: { thought_signature: 'CiQB0e2Kb7sigA==' } },
        },
        {
          id: 'function-call-22222',
          type: 'function',
          function: { name: 'get_time', arguments: '{"tz":"CET"}' },
        },
      ]);
    }
  });

  it('keeps extra_content from reaching another provider', async () => {
    const server = await servers.start([
      { chunks: [fixture('gemini-openai-parallel.sse')] },
      { chunks: [fixture('text.sse')] },
    ]);
    const gemini = compatible('gemini-3-pro-preview', 'gemini-openai', { baseURL: server.url });
    const { message } = await gemini.complete({ messages: 'x' });
    await openai('gpt-4o', { baseURL: server.url, apiKey: 'k', retry: false }).complete({
      messages: [user('x'), message],
    });
    expect(JSON.stringify(server.requests[1]?.json)).not.toContain('extra_content');
  });

  it('xAI: reasoning tokens outside completion_tokens count as output; total = input + output; cost follows', async () => {
    await servers.start([{ chunks: randomSplit(fixture('xai-reasoning-usage.sse'), 3, 40) }]);
    const price = { inputPerMTok: 0.3, outputPerMTok: 0.5, cachedInputPerMTok: 0.075 };
    const model = compatible('grok-3-mini', 'xai', { baseURL: servers.url, price });
    const response = await model.complete({ messages: 'What is 2+2?' });
    expect(response.usage).toEqual({
      inputTokens: 32,
      outputTokens: 144,
      totalTokens: 176,
      cachedInputTokens: 6,
      reasoningTokens: 135,
    });
    expect(response.cost).toEqual(computeCost(response.usage!, price));
    expect(response.cost?.outputUsd).toBeCloseTo((144 * 0.5) / 1e6, 12);
  });

  it('OpenAI: reasoning inside completion_tokens is not counted twice', async () => {
    await servers.start([{ chunks: [fixture('usage-details.sse')] }]);
    const response = await openai('gpt-4o-mini', {
      baseURL: servers.url,
      apiKey: 'k',
      retry: false,
    }).complete({
      messages: 'x',
    });
    expect(response.usage).toMatchObject({
      inputTokens: 2000,
      outputTokens: 500,
      totalTokens: 2500,
      reasoningTokens: 128,
    });
  });

  it('Mistral: content arrays of thinking and text parts become reasoning and text', async () => {
    for (let seed = 1; seed <= 5; seed++) {
      await servers.start([{ chunks: randomSplit(fixture('mistral-thinking-parts.sse'), seed, 64) }]);
      const model = compatible('magistral-medium-2509', 'mistral', { baseURL: servers.url });
      const response = await model.complete({ messages: 'What is 2+2?' });
      expect(response.text).toBe('2 + 2 = 4');
      expect(response.reasoning).toBe('The user asks for 2+2. That is 4.');
    }
  });
});

describe('OpenAI requests the API would refuse', () => {
  it('sends no stop to a reasoning model, and stop to others', async () => {
    const server = await servers.start([{ chunks: [fixture('text.sse')] }]);
    const request = { messages: 'x', stop: ['END'], maxOutputTokens: 100 };
    await openai('o4-mini', { baseURL: server.url, apiKey: 'k', retry: false }).complete(request);
    await openai('gpt-4o', { baseURL: server.url, apiKey: 'k', retry: false }).complete(request);
    expect(server.requests[0]?.json).not.toHaveProperty('stop');
    expect(server.requests[1]?.json).toMatchObject({ stop: ['END'] });
  });

  it('JSON mode without a schema says JSON in the messages when no message does', async () => {
    const server = await servers.start([{ chunks: [fixture('text.sse')] }]);
    const model = openai('gpt-4o', { baseURL: server.url, apiKey: 'k', retry: false });
    const json = { type: 'json' } as const;
    await model
      .complete({ messages: 'List three primary colours.', responseFormat: json })
      .catch(() => undefined);
    await model
      .complete({ messages: 'Colours?', system: 'Be terse.', responseFormat: json })
      .catch(() => undefined);
    await model.complete({ messages: 'Colours as JSON.', responseFormat: json }).catch(() => undefined);
    const messages = server.requests.map((r) => (r.json as { messages: unknown[] }).messages);
    expect(messages[0]).toEqual([
      { role: 'system', content: 'Answer with a JSON object.' },
      { role: 'user', content: 'List three primary colours.' },
    ]);
    expect(messages[1]?.[0]).toEqual({ role: 'system', content: 'Be terse.\n\nAnswer with a JSON object.' });
    expect(messages[2]).toEqual([{ role: 'user', content: 'Colours as JSON.' }]);
  });
});
