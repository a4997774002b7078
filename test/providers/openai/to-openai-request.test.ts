import { describe, expect, it } from 'vitest';
import {
  assistant,
  type ContentPart,
  InvalidRequestError,
  message,
  system,
  toolMessage,
  user,
} from '../../../src/index.ts';
import { toOpenAIContentPart, toOpenAIMessage } from '../../../src/providers/openai/to-openai-messages.ts';
import {
  type OpenAIRequestOptions,
  toOpenAIRequest,
} from '../../../src/providers/openai/to-openai-request.ts';

const wireOptions: OpenAIRequestOptions = { maxTokensField: 'max_completion_tokens', includeUsage: true };

describe('toOpenAIRequest', () => {
  it('a string prompt: one user message, streaming with usage', () => {
    expect(toOpenAIRequest({ messages: 'Hi' }, 'gpt-4o-mini', wireOptions)).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream_options: { include_usage: true },
      stream: true,
    });
  });

  it('system first, then the conversation with tool calls (arguments as JSON text) and tool results', () => {
    const body = toOpenAIRequest(
      {
        system: 'Be brief.',
        messages: [
          system('Also polite.'),
          user('Weather in Paris and Oslo?'),
          assistant('Checking.', [
            { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
            { id: 'call_2', name: 'get_weather', arguments: {} },
          ]),
          toolMessage('call_1', '{"tempC":18}'),
          toolMessage('call_2', [
            { type: 'text', text: 'unknown ' },
            { type: 'text', text: 'city' },
          ]),
          assistant([{ type: 'text', text: 'Paris is 18 °C.' }]),
        ],
      },
      'gpt-4o',
      wireOptions,
    );
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Also polite.' },
      { role: 'user', content: 'Weather in Paris and Oslo?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"tempC":18}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'unknown city' },
      { role: 'assistant', content: 'Paris is 18 °C.' },
    ]);
  });

  it('an empty system string is left out; an assistant with calls and no text sends content null', () => {
    const body = toOpenAIRequest(
      { system: '', messages: [assistant('', [{ id: 'c', name: 'f', arguments: { a: 1 } }])] },
      'm',
      wireOptions,
    );
    expect(body.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      },
    ]);
  });

  it('multi-part user content: text, image URL, base64 image, data-URL image, audio and files', () => {
    const parts: ContentPart[] = [
      { type: 'text', text: 'What is this?' },
      { type: 'image', url: 'https://example.com/cat.png' },
      { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/jpeg' },
      { type: 'image', data: 'iVBORw0KGgo=' },
      { type: 'image', data: 'data:image/webp;base64,UklGRg==' },
      { type: 'file', data: 'UklGRiQ=', mediaType: 'audio/wav' },
      { type: 'file', data: 'SUQz', mediaType: 'audio/mpeg' },
      { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'report.pdf' },
      { type: 'file', data: 'data:text/plain;base64,aGk=', mediaType: 'text/plain' },
    ];
    expect(toOpenAIMessage(user(parts))).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,iVBORw0KGgo=' } },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'image_url', image_url: { url: 'data:image/webp;base64,UklGRg==' } },
        { type: 'input_audio', input_audio: { data: 'UklGRiQ=', format: 'wav' } },
        { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
        { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'report.pdf' } },
        { type: 'file', file: { file_data: 'data:text/plain;base64,aGk=' } },
      ],
    });
  });

  it('system and tool messages with parts are sent as their text', () => {
    expect(toOpenAIMessage(message({ role: 'system', content: [{ type: 'text', text: 'a' }] }))).toEqual({
      role: 'system',
      content: 'a',
    });
    expect(toOpenAIMessage(message({ role: 'tool', toolCallId: 'c1', content: 'x' }))).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'x',
    });
    // Without the id of the call it answers, no wire can pair it: refused, not sent as ''.
    expect(() => toOpenAIMessage(message({ role: 'tool', content: 'x' }))).toThrow(InvalidRequestError);
  });

  it('unknown roles and parts are refused', () => {
    expect(() => toOpenAIMessage({ role: 'narrator', content: '' } as never)).toThrow(InvalidRequestError);
    expect(() => toOpenAIContentPart({ type: 'video' } as never)).toThrow(InvalidRequestError);
  });

  it('tools, tool choice (incl. a named function), temperature, stop, max tokens', () => {
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const body = toOpenAIRequest(
      {
        messages: 'hi',
        tools: [{ name: 'get_weather', description: 'Weather.', parameters }],
        toolChoice: { name: 'get_weather' },
        temperature: 0.2,
        stop: ['END'],
        maxOutputTokens: 100,
      },
      'gpt-4o',
      wireOptions,
    );
    expect(body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0.2,
      stop: ['END'],
      max_completion_tokens: 100,
    });
    expect(body).not.toHaveProperty('max_tokens');
    const tools = [{ name: 'get_weather', description: 'Weather.', parameters }];
    for (const choice of ['auto', 'none', 'required'] as const) {
      expect(
        toOpenAIRequest({ messages: 'hi', tools, toolChoice: choice }, 'm', wireOptions).tool_choice,
      ).toBe(choice);
    }
  });

  it('empty tools and stop lists are left out', () => {
    const body = toOpenAIRequest({ messages: 'hi', tools: [], stop: [] }, 'm', wireOptions);
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('stop');
  });

  it('max_tokens for servers that read it; no stream_options when usage is not asked for', () => {
    const body = toOpenAIRequest({ messages: 'hi', maxOutputTokens: 5 }, 'llama', {
      maxTokensField: 'max_tokens',
      includeUsage: false,
    });
    expect(body.max_tokens).toBe(5);
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body).not.toHaveProperty('stream_options');
  });

  it('JSON response formats: json_object, and strict json_schema with a name', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'number' } },
      required: ['a'],
      additionalProperties: false,
    };
    expect(
      toOpenAIRequest({ messages: 'hi', responseFormat: { type: 'json' } }, 'm', wireOptions).response_format,
    ).toEqual({
      type: 'json_object',
    });
    expect(
      toOpenAIRequest({ messages: 'hi', responseFormat: { type: 'json', schema } }, 'm', wireOptions)
        .response_format,
    ).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema, strict: true } });
    expect(
      toOpenAIRequest(
        { messages: 'hi', responseFormat: { type: 'json', schema, name: 'answer' } },
        'm',
        wireOptions,
      ).response_format,
    ).toMatchObject({ json_schema: { name: 'answer' } });
  });

  it('wire options are spread last but cannot turn streaming off', () => {
    const body = toOpenAIRequest({ messages: 'hi', temperature: 1 }, 'm', {
      ...wireOptions,
      wire: {
        temperature: 0.5,
        seed: 1,
        reasoning_effort: 'low',
        stream: false,
        stream_options: { include_usage: false },
      },
    });
    expect(body).toMatchObject({ temperature: 0.5, seed: 1, reasoning_effort: 'low', stream: true });
    expect(body.stream_options).toEqual({ include_usage: false });
  });

  it('does not mutate the request', () => {
    const request = Object.freeze({
      messages: Object.freeze([user('hi')]),
      stop: Object.freeze(['x']) as string[],
    });
    expect(() => toOpenAIRequest(request, 'm', wireOptions)).not.toThrow();
  });
});
