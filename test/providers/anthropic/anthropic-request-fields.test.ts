import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assistant, InvalidRequestError, message, toolMessage, user } from '../../../src/core/index.ts';
import {
  anthropicMaxTokens,
  estimatePromptTokens,
} from '../../../src/providers/anthropic/anthropic-max-tokens.ts';
import { anthropic } from '../../../src/providers/anthropic/index.ts';
import { createAnthropicMapper } from '../../../src/providers/anthropic/create-anthropic-mapper.ts';
import { toAnthropicRequest } from '../../../src/providers/anthropic/to-anthropic-request.ts';
import { requestToolNames } from '../../../src/providers/shared/index.ts';
import { readFixtures } from '../../support/read-fixtures.ts';
import { startTranscriptServer, type TranscriptServer } from '../../support/transcript-server.ts';

const fixture = readFixtures(new URL('./anthropic-stream.test.ts', import.meta.url).href);
const settings = { maxOutputTokens: 1024 };
const tool = (name: string) => ({ name, description: 'd', parameters: { type: 'object', properties: {} } });

let server: TranscriptServer;
beforeAll(async () => {
  server = await startTranscriptServer(() => ({ chunks: [fixture('text.sse')] }));
});
afterAll(() => server.close());

describe('anthropic request fields', () => {
  it('reads only providerOptions.anthropic: thinking meant for it never leaks to another key, and back', async () => {
    const model = anthropic('claude-sonnet-4-5', { apiKey: 'k', baseURL: server.url, retry: false });
    await model.complete({
      messages: 'hi',
      providerOptions: { openai: { reasoning_effort: 'low' }, anthropic: { metadata: { user_id: 'u' } } },
    });
    const body = server.requests.at(-1)?.json as Record<string, unknown>;
    expect(body).toMatchObject({ metadata: { user_id: 'u' } });
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(body).not.toHaveProperty('openai');
  });

  it('maps topP, topK and a copied stop; seed and penalties have no field', () => {
    const body = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi', topP: 0.8, topK: 40, seed: 1, frequencyPenalty: 1, presencePenalty: 1, stop: ['X'] },
      settings,
    );
    expect(body).toMatchObject({ top_p: 0.8, top_k: 40, stop_sequences: ['X'] });
    for (const key of ['seed', 'frequency_penalty', 'presence_penalty']) expect(body).not.toHaveProperty(key);
  });

  it('temperature with topP is an InvalidRequestError on models that refuse the pair, sent to older ones', () => {
    const request = { messages: 'hi', temperature: 0.5, topP: 0.9 };
    expect(() => toAnthropicRequest('claude-sonnet-4-5', request, settings)).toThrow(InvalidRequestError);
    expect(() => toAnthropicRequest('claude-opus-4-1', request, settings)).toThrow(InvalidRequestError);
    expect(toAnthropicRequest('claude-3-5-haiku-latest', request, settings)).toMatchObject({
      temperature: 0.5,
      top_p: 0.9,
    });
  });

  it('while thinking leaves out top_k and a top_p below 0.95', () => {
    const thinking = { budgetTokens: 2048 };
    const low = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi', topP: 0.5, topK: 3 },
      { ...settings, thinking },
    );
    expect(low).not.toHaveProperty('top_p');
    expect(low).not.toHaveProperty('top_k');
    const high = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi', topP: 0.97 },
      { ...settings, thinking },
    );
    expect(high.top_p).toBe(0.97);
  });

  it('thinking with a forced tool is an InvalidRequestError', () => {
    for (const toolChoice of ['required', { name: 'x' }] as const) {
      expect(() =>
        toAnthropicRequest(
          'claude-sonnet-4-5',
          { messages: 'hi', tools: [tool('x')], toolChoice },
          { ...settings, thinking: { budgetTokens: 2048 } },
        ),
      ).toThrow(InvalidRequestError);
    }
    const auto = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi', tools: [tool('x')], toolChoice: 'auto' },
      { ...settings, thinking: { budgetTokens: 2048 } },
    );
    expect(auto.tool_choice).toEqual({ type: 'auto' });
  });

  it('budget_tokens always stays below max_tokens', () => {
    const capped = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi', maxOutputTokens: 1500 },
      { ...settings, modelMaxOutputTokens: 2000, thinking: { budgetTokens: 4000 } },
    );
    expect(capped.max_tokens).toBe(2000);
    expect(capped.thinking).toEqual({ type: 'enabled', budget_tokens: 1999 });
    expect(() =>
      toAnthropicRequest(
        'claude-sonnet-4-5',
        { messages: 'hi', maxOutputTokens: 500 },
        { ...settings, modelMaxOutputTokens: 800, thinking: { budgetTokens: 4000 } },
      ),
    ).toThrow(InvalidRequestError);
  });

  it('the default max_tokens keeps prompt + output inside the context window', () => {
    const prompt = 'word '.repeat(90_000);
    const body = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: prompt },
      {
        maxOutputTokens: 64_000,
        contextWindow: 200_000,
      },
    );
    const estimate = estimatePromptTokens([body.messages]);
    expect(estimate).toBeGreaterThan(prompt.length / 4);
    expect(body.max_tokens + prompt.length / 4).toBeLessThanOrEqual(200_000);
    expect(body.max_tokens).toBeLessThan(64_000);
    // A requested limit is the caller's: kept.
    const requested = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: prompt, maxOutputTokens: 64_000 },
      {
        maxOutputTokens: 64_000,
        contextWindow: 200_000,
      },
    );
    expect(requested.max_tokens).toBe(64_000);
    expect(
      anthropicMaxTokens({
        requested: undefined,
        defaultTokens: 8000,
        contextWindow: 200_000,
        promptTokens: 10,
      }),
    ).toEqual({ maxTokens: 8000 });
  });

  it('images count as media, not as their base64 bytes, in the estimate', () => {
    const data = 'A'.repeat(3_000_000);
    const tokens = estimatePromptTokens([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
    ]);
    expect(tokens).toBeLessThan(2_000);
  });

  it('isError → is_error, cache → cache_control on the last block, also on system text', () => {
    const body = toAnthropicRequest(
      'claude-sonnet-4-5',
      {
        messages: [
          message({ role: 'system', content: 'Long rules.', cache: true }),
          message({ role: 'user', content: 'Big document.', cache: true }),
          assistant('', [{ id: 't1', name: 'x', arguments: {} }]),
          toolMessage('t1', 'boom', { isError: true }),
        ],
      },
      settings,
    );
    expect(body.system).toEqual([
      { type: 'text', text: 'Long rules.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Big document.', cache_control: { type: 'ephemeral' } }],
    });
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'boom', is_error: true }],
    });
  });

  it('images and text files as bytes and URL objects', () => {
    const body = toAnthropicRequest(
      'claude-sonnet-4-5',
      {
        messages: [
          user([
            { type: 'image', data: new Uint8Array([0xff, 0xd8, 0xff]), mediaType: 'image/jpeg' },
            { type: 'image', url: new URL('https://example.com/a.png') },
            { type: 'file', data: new TextEncoder().encode('héllo'), mediaType: 'text/plain' },
          ]),
        ],
      },
      settings,
    );
    expect(body.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'héllo' } },
    ]);
  });

  it('a zod response schema is sent as JSON Schema in the json tool', () => {
    const body = toAnthropicRequest(
      'claude-sonnet-4-5',
      { messages: 'hi', responseFormat: { type: 'json', schema: z.object({ n: z.number() }) } },
      settings,
    );
    expect(body.tools).toEqual([
      expect.objectContaining({
        name: 'json',
        input_schema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      }),
    ]);
  });

  it('dotted and long tool names are encoded out and decoded back', () => {
    const name = 'github.create_issue';
    const request = {
      messages: [user('go'), assistant('', [{ id: 't0', name, arguments: {} }]), toolMessage('t0', 'ok')],
      tools: [tool(name)],
      toolChoice: { name },
    };
    const toolNames = requestToolNames(request);
    const body = toAnthropicRequest('claude-sonnet-4-5', request, { ...settings, toolNames });
    const wireName = body.tools?.[0]?.name as string;
    expect(wireName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(body.tool_choice).toEqual({ type: 'tool', name: wireName });
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't0', name: wireName, input: {} }],
    });
    const mapper = createAnthropicMapper(undefined, toolNames);
    mapper.map({ data: JSON.stringify({ type: 'message_start', message: { id: 'm' } }) } as never);
    const events = mapper.map({
      data: JSON.stringify({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't1', name: wireName, input: {} },
      }),
    } as never);
    expect(events).toEqual([{ type: 'tool-call-delta', index: 0, id: 't1', name, argumentsDelta: '' }]);
  });
});
