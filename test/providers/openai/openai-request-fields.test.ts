import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { z } from 'zod';
import { assistant, StructuredOutputError, toolMessage, user } from '../../../src/core/index.ts';
import { azureOpenAI, openai, openaiCompatible } from '../../../src/providers/openai/index.ts';
import { openAIChunkMapper } from '../../../src/providers/openai/map-openai-chunk.ts';
import { isStrictCompatible } from '../../../src/providers/openai/openai-response-format.ts';
import { toOpenAIRequest } from '../../../src/providers/openai/to-openai-request.ts';
import { requestToolNames } from '../../../src/providers/shared/index.ts';
import { startTranscriptServer, type TranscriptServer } from '../../support/transcript-server.ts';
import { fixture } from './helpers.ts';

const wire = { maxTokensField: 'max_completion_tokens', includeUsage: false } as const;
const tool = (name: string) => ({ name, description: 'd', parameters: { type: 'object', properties: {} } });

let server: TranscriptServer;
beforeAll(async () => {
  server = await startTranscriptServer(() => ({ chunks: [fixture('text.sse')] }));
});
afterAll(() => server.close());
const lastBody = () => server.requests.at(-1)?.json as Record<string, unknown>;

describe('providerOptions keyed by provider', () => {
  const providerOptions = {
    anthropic: { thinking: { budgetTokens: 2048 } },
    openai: { reasoning_effort: 'low' },
    azure: { user: 'azure-user' },
    vllm: { top_k: 20 },
  };

  it('openai() reads only providerOptions.openai', async () => {
    const model = openai('gpt-4o', { apiKey: 'k', baseURL: server.url, retry: false });
    await model.complete({ messages: 'hi', providerOptions });
    expect(lastBody()).toMatchObject({ reasoning_effort: 'low' });
    expect(lastBody()).not.toHaveProperty('thinking');
    expect(lastBody()).not.toHaveProperty('openai');
    expect(lastBody()).not.toHaveProperty('user');
  });

  it('openaiCompatible() reads the key of its name, azureOpenAI() the azure key', async () => {
    await openaiCompatible('m', { baseURL: server.url, name: 'vllm', retry: false }).complete({
      messages: 'hi',
      providerOptions,
    });
    expect(lastBody()).toMatchObject({ top_k: 20 });
    expect(lastBody()).not.toHaveProperty('reasoning_effort');
    await azureOpenAI('dep', { apiKey: 'k', baseURL: server.url, retry: false }).complete({
      messages: 'hi',
      providerOptions,
    });
    expect(lastBody()).toMatchObject({ user: 'azure-user' });
    expect(lastBody()).not.toHaveProperty('reasoning_effort');
    expect(lastBody()).not.toHaveProperty('top_k');
  });
});

describe('toOpenAIRequest fields', () => {
  it('maps topP, seed and the penalties, copies stop, and ignores topK (no such field)', () => {
    const stop = ['END'] as const;
    const body = toOpenAIRequest(
      { messages: 'hi', topP: 0.9, topK: 5, seed: 7, frequencyPenalty: 0.1, presencePenalty: 0.2, stop },
      'm',
      wire,
    );
    expect(body).toMatchObject({ top_p: 0.9, seed: 7, frequency_penalty: 0.1, presence_penalty: 0.2 });
    expect(body.stop).toEqual(['END']);
    expect(body.stop).not.toBe(stop);
    expect(body).not.toHaveProperty('top_k');
  });

  it('sends no tool_choice without tools (the API refuses it)', () => {
    for (const toolChoice of ['auto', 'none', 'required', { name: 'x' }] as const) {
      expect(toOpenAIRequest({ messages: 'hi', toolChoice }, 'm', wire)).not.toHaveProperty('tool_choice');
    }
  });

  it('images and files as bytes and URL objects', () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const body = toOpenAIRequest(
      {
        messages: [
          user([
            { type: 'image', data: bytes, mediaType: 'image/png' },
            { type: 'image', url: new URL('https://example.com/cat.png') },
            { type: 'file', data: new Uint8Array([37, 80, 68, 70]), mediaType: 'application/pdf' },
            { type: 'file', data: new Uint8Array([1, 2]), mediaType: 'audio/wav' },
          ]),
        ],
      },
      'm',
      wire,
    );
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERg==' } },
        { type: 'input_audio', input_audio: { data: 'AQI=', format: 'wav' } },
      ],
    });
  });

  it('a zod schema is sent as its JSON Schema (not its internals), strict when strict mode takes it', () => {
    const schema = z.object({ city: z.string(), tempC: z.number() });
    const body = toOpenAIRequest({ messages: 'hi', responseFormat: { type: 'json', schema } }, 'm', wire);
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'response',
        strict: false,
        schema: {
          type: 'object',
          properties: { city: { type: 'string' }, tempC: { type: 'number' } },
          required: ['city', 'tempC'],
        },
      },
    });
    const strict = z.strictObject({ a: z.string() });
    const strictBody = toOpenAIRequest(
      { messages: 'hi', responseFormat: { type: 'json', schema: strict } },
      'm',
      wire,
    );
    expect(strictBody.response_format).toMatchObject({ json_schema: { strict: true } });
  });

  it('a valibot schema (no Standard JSON Schema) is refused without jsonSchema, sent with it', () => {
    const schema = v.object({ a: v.string() });
    expect(() =>
      toOpenAIRequest({ messages: 'hi', responseFormat: { type: 'json', schema } }, 'm', wire),
    ).toThrow(expect.objectContaining({ code: 'invalid_request', option: 'responseFormat.schema' }));
    const jsonSchema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const body = toOpenAIRequest(
      { messages: 'hi', responseFormat: { type: 'json', schema, jsonSchema } },
      'm',
      wire,
    );
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema: jsonSchema } });
    expect(JSON.stringify(body)).not.toContain('~standard');
  });

  it('a response schema name the API refuses is made valid', () => {
    const body = toOpenAIRequest(
      {
        messages: 'hi',
        responseFormat: { type: 'json', schema: { type: 'object' }, name: 'weather report.v2' },
      },
      'm',
      wire,
    );
    expect(body.response_format).toMatchObject({ json_schema: { name: 'weather_report_v2' } });
  });

  it('isStrictCompatible: optional properties or open objects are not strict', () => {
    expect(
      isStrictCompatible({
        type: 'object',
        properties: { a: {} },
        required: ['a'],
        additionalProperties: false,
      }),
    ).toBe(true);
    expect(isStrictCompatible({ type: 'object', properties: { a: {} }, additionalProperties: false })).toBe(
      false,
    );
    expect(isStrictCompatible({ type: 'object', properties: { a: {} }, required: ['a'] })).toBe(false);
    expect(isStrictCompatible({ type: 'object' })).toBe(false);
  });
});

describe('tool names the wire refuses', () => {
  it('are encoded in tools, tool_choice and history, and decoded in the streamed call', () => {
    const name = 'github.search_issues';
    const long = `mcp__${'x'.repeat(80)}`;
    const request = {
      messages: [
        user('find'),
        assistant('', [{ id: 'c1', name: long, arguments: {} }]),
        toolMessage('c1', 'done'),
      ],
      tools: [tool(name), tool(long), tool('plain_name')],
      toolChoice: { name },
    };
    const names = requestToolNames(request);
    const body = toOpenAIRequest(request, 'm', { ...wire, toolNames: names });
    const sent = (body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(sent[2]).toBe('plain_name');
    for (const wireName of sent) expect(wireName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: sent[0] } });
    expect(body.messages[1]).toMatchObject({ tool_calls: [{ function: { name: sent[1] } }] });

    const mapper = openAIChunkMapper('openai', names);
    const events = mapper.map({
      data: JSON.stringify({
        choices: [
          { delta: { tool_calls: [{ index: 0, id: 'c2', function: { name: sent[0], arguments: '{}' } }] } },
        ],
      }),
    } as never);
    expect(events).toEqual([{ type: 'tool-call-delta', index: 0, id: 'c2', name, argumentsDelta: '{}' }]);
  });

  it('a tool call with a dotted name comes back decoded from a real stream', async () => {
    const name = 'fs.read_file';
    const wireName = requestToolNames({ messages: 'x', tools: [tool(name)] }).encode(name);
    const call = {
      choices: [
        {
          delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: wireName, arguments: '{"p":1}' } }] },
        },
      ],
    };
    const local = await startTranscriptServer(() => ({
      chunks: [
        `data: ${JSON.stringify(call)}\n\ndata: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n`,
      ],
    }));
    try {
      const model = openai('gpt-4o', { apiKey: 'k', baseURL: local.url, retry: false });
      const response = await model.complete({ messages: 'read', tools: [tool(name)] });
      expect(response.toolCalls).toEqual([{ id: 'c1', name, arguments: { p: 1 } }]);
      expect(
        (local.requests[0]?.json as { tools: { function: { name: string } }[] }).tools[0]?.function.name,
      ).toBe(wireName);
    } finally {
      await local.close();
    }
  });
});

describe('structured output through a real stream', () => {
  const sse = (text: string) =>
    `data: ${JSON.stringify({ choices: [{ delta: { content: text } }] })}\n\n` +
    'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

  it('response.object is the reply validated by the zod schema; a mismatch is a StructuredOutputError', async () => {
    const replies = ['{"city":"Oslo","tempC":"warm"}', '{"city":"Oslo","tempC":7}'];
    const local = await startTranscriptServer(() => ({ chunks: [sse(replies.pop() as string)] }));
    try {
      const model = openai('gpt-4o', { apiKey: 'k', baseURL: local.url, retry: false });
      const responseFormat = {
        type: 'json' as const,
        schema: z.object({ city: z.string(), tempC: z.number() }),
      };
      const good = await model.complete({ messages: 'weather', responseFormat });
      expect(good.object).toEqual({ city: 'Oslo', tempC: 7 });
      expect(JSON.stringify(local.requests[0]?.json)).not.toContain('_zod');
      const bad = model.complete({ messages: 'weather', responseFormat });
      await expect(bad).rejects.toBeInstanceOf(StructuredOutputError);
      await expect(bad).rejects.toMatchObject({ text: '{"city":"Oslo","tempC":"warm"}' });
    } finally {
      await local.close();
    }
  });
});

describe('toolNameCodec (property)', () => {
  it('any set of names round-trips, and every encoded name matches the wire rule and is unique', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 0, maxLength: 120 }), { maxLength: 12 }), (names) => {
        const codec = requestToolNames({ messages: 'x', tools: names.map(tool) });
        const encoded = names.map((name) => codec.encode(name));
        for (const [i, name] of names.entries()) {
          expect(encoded[i]).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
          expect(codec.decode(encoded[i] as string)).toBe(name);
        }
        expect(new Set(encoded).size).toBe(names.length);
      }),
    );
  });

  it('keeps names that are valid, and never lets an encoded name take a valid one', () => {
    const codec = requestToolNames({ messages: 'x', tools: [tool('a.b'), tool('ok-name')] });
    expect(codec.encode('ok-name')).toBe('ok-name');
    expect(codec.decode('unknown')).toBe('unknown');
    const collider = codec.encode('a.b');
    const second = requestToolNames({ messages: 'x', tools: [tool('a.b'), tool(collider)] });
    expect(second.encode(collider)).toBe(collider);
    expect(second.encode('a.b')).not.toBe(collider);
    expect(second.decode(second.encode('a.b'))).toBe('a.b');
  });
});
