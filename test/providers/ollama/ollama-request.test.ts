import { describe, expect, it } from 'vitest';
import { assistant, message, RxAgentError, system, toolMessage, user } from '../../../src/index.ts';
import { z } from 'zod';
import { createOllamaMapper } from '../../../src/providers/ollama/ollama-chunk-mapper.ts';
import { buildOllamaRequest } from '../../../src/providers/ollama/ollama-request.ts';
import { requestToolNames } from '../../../src/providers/shared/index.ts';

const weather = {
  name: 'get_weather',
  description: 'Weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const clock = { name: 'get_time', description: 'Time', parameters: { type: 'object' } };

describe('buildOllamaRequest', () => {
  it('maps a string prompt and the system text', () => {
    expect(buildOllamaRequest('llama3.2', { messages: 'Hi', system: 'Be terse.' })).toEqual({
      model: 'llama3.2',
      stream: true,
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Hi' },
      ],
    });
  });

  it('maps images, tool calls, tool results with tool_name, and thinking', () => {
    const body = buildOllamaRequest('llava', {
      messages: [
        system('sys'),
        user([
          { type: 'text', text: 'What is this?' },
          { type: 'image', data: 'AAAA', mediaType: 'image/png' },
          { type: 'image', url: 'data:image/jpeg;base64,BBBB' },
        ]),
        assistant('Let me check.', [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }], {
          reasoning: 'I should call the tool.',
        }),
        toolMessage('c1', '{"tempC":3}'),
        toolMessage('unknown', 'orphan'),
      ],
    });
    expect(body.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'What is this?', images: ['AAAA', 'BBBB'] },
      {
        role: 'assistant',
        content: 'Let me check.',
        thinking: 'I should call the tool.',
        tool_calls: [{ id: 'c1', function: { name: 'get_weather', arguments: { city: 'Oslo' } } }],
      },
      { role: 'tool', content: '{"tempC":3}', tool_name: 'get_weather', tool_call_id: 'c1' },
      { role: 'tool', content: 'orphan', tool_call_id: 'unknown' },
    ]);
  });

  it('keeps images of tool results and a tool message without id', () => {
    const body = buildOllamaRequest('m', {
      messages: [
        message({
          role: 'tool',
          content: [
            { type: 'image', data: 'CCCC' },
            { type: 'text', text: 'chart' },
          ],
        }),
      ],
    });
    expect(body.messages).toEqual([{ role: 'tool', content: 'chart', images: ['CCCC'] }]);
  });

  it('refuses remote image URLs and file parts with a typed error', () => {
    expect(() =>
      buildOllamaRequest('m', { messages: [user([{ type: 'image', url: 'https://x/cat.png' }])] }),
    ).toThrow(expect.objectContaining({ code: 'invalid_request', name: 'InvalidRequestError' }));
    try {
      buildOllamaRequest('m', {
        messages: [user([{ type: 'file', data: 'JVBE', mediaType: 'application/pdf' }])],
      });
      expect.unreachable();
    } catch (error) {
      expect(RxAgentError.is(error)).toBe(true);
      expect((error as Error).message).toContain('application/pdf');
    }
  });

  it('maps sampling fields into options, provider options into options or the top level', () => {
    const body = buildOllamaRequest(
      'qwen3',
      {
        messages: 'x',
        temperature: 0.2,
        maxOutputTokens: 64,
        stop: ['END'],
        responseFormat: { type: 'json' },
      },
      { think: true, keepAlive: '5m', options: { num_ctx: 4096, seed: 1 } },
      { num_ctx: 8192, top_k: 20, keep_alive: -1, options: { min_p: 0.05 } },
    );
    expect(body).toMatchObject({
      format: 'json',
      think: true,
      keep_alive: -1,
      options: {
        num_ctx: 8192,
        seed: 1,
        top_k: 20,
        min_p: 0.05,
        temperature: 0.2,
        num_predict: 64,
        stop: ['END'],
      },
    });
    expect(body.options).not.toHaveProperty('keep_alive');
    expect(body.options).not.toHaveProperty('options');
  });

  it('sends a JSON schema as format, and think from provider options', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    const body = buildOllamaRequest(
      'm',
      { messages: 'x', responseFormat: { type: 'json', schema } },
      { think: false },
      { think: 'high' },
    );
    expect(body.format).toEqual(schema);
    expect(body.think).toBe('high');
    expect(body).not.toHaveProperty('options');
  });

  it('maps tools and tool choice', () => {
    const tools = [weather, clock];
    expect(buildOllamaRequest('m', { messages: 'x', tools }).tools).toEqual([
      { type: 'function', function: weather },
      { type: 'function', function: clock },
    ]);
    expect(buildOllamaRequest('m', { messages: 'x', tools, toolChoice: 'required' }).tools).toHaveLength(2);
    expect(buildOllamaRequest('m', { messages: 'x', tools, toolChoice: 'none' })).not.toHaveProperty('tools');
    expect(buildOllamaRequest('m', { messages: 'x', tools, toolChoice: { name: 'get_time' } }).tools).toEqual(
      [{ type: 'function', function: clock }],
    );
  });
});

describe('buildOllamaRequest: request fields of issue 7', () => {
  it('maps topP, topK, seed and the penalties into options, copying stop', () => {
    const stop = ['END'] as const;
    const body = buildOllamaRequest('m', {
      messages: 'x',
      topP: 0.9,
      topK: 40,
      seed: 1,
      frequencyPenalty: 0.5,
      presencePenalty: 0.25,
      stop,
    });
    expect(body.options).toEqual({
      top_p: 0.9,
      top_k: 40,
      seed: 1,
      frequency_penalty: 0.5,
      presence_penalty: 0.25,
      stop: ['END'],
    });
    expect(body.options?.stop).not.toBe(stop);
  });

  it('a zod schema becomes its JSON Schema in format; image bytes are base64', () => {
    const body = buildOllamaRequest('m', {
      messages: [user([{ type: 'image', data: new Uint8Array([0xff, 0xd8, 0xff]) }])],
      responseFormat: { type: 'json', schema: z.object({ ok: z.boolean() }) },
    });
    expect(body.format).toEqual({
      type: 'object',
      properties: { ok: { type: 'boolean' } },
      required: ['ok'],
    });
    expect(body.messages[0]?.images).toEqual(['/9j/']);
  });

  it('encodes tool names the wire refuses and decodes them in streamed calls, with unique generated ids', () => {
    const name = 'fs.read';
    const request = {
      messages: 'x',
      tools: [{ name, description: 'd', parameters: { type: 'object', properties: {} } }],
    };
    const toolNames = requestToolNames(request);
    const body = buildOllamaRequest('m', request, {}, {}, toolNames);
    const wireName = body.tools?.[0]?.function.name as string;
    expect(wireName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const line = { message: { tool_calls: [{ function: { name: wireName, arguments: {} } }] } };
    const first = createOllamaMapper('m', toolNames).map(line)[0];
    const second = createOllamaMapper('m', toolNames).map(line)[0];
    expect(first).toMatchObject({ type: 'tool-call-delta', name });
    expect((first as { id: string }).id).not.toBe((second as { id: string }).id);
  });
});
