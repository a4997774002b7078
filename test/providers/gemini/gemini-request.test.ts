import { describe, expect, it } from 'vitest';
import { assistant, RxAgentError, system, toolMessage, user } from '../../../src/index.ts';
import { geminiCapabilities } from '../../../src/providers/gemini/gemini-capabilities.ts';
import { toGeminiRequest } from '../../../src/providers/gemini/to-gemini-request.ts';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

describe('toGeminiRequest', () => {
  it('sends a string as one user turn and nothing else', () => {
    expect(toGeminiRequest({ messages: 'Hi' })).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
    });
  });

  it('puts request.system and system messages into systemInstruction and merges same-role turns', () => {
    const body = toGeminiRequest({
      system: 'Be terse.',
      messages: [system('Answer in French.'), user('One'), user('Two'), assistant(''), assistant('Trois')],
    });
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be terse.\n\nAnswer in French.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'One' }, { text: 'Two' }] },
      { role: 'model', parts: [{ text: 'Trois' }] },
    ]);
  });

  it('sends tool calls as functionCall parts and results as functionResponse parts named after their call', () => {
    const body = toGeminiRequest({
      messages: [
        user('Weather and time?'),
        assistant('Checking.', [
          { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'call_2', name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
        ]),
        toolMessage('call_2', 'fourteen o’clock'),
        toolMessage('call_1', '{"tempC":18}'),
        toolMessage('call_1', '[1,2]'),
      ],
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather and time?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking.' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'get_time', args: { timezone: 'Europe/Paris' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_time', response: { output: 'fourteen o’clock' } } },
          { functionResponse: { name: 'get_weather', response: { tempC: 18 } } },
          { functionResponse: { name: 'get_weather', response: { output: [1, 2] } } },
        ],
      },
    ]);
  });

  it('names a result after the latest call with its id (ids generated per turn repeat)', () => {
    const body = toGeminiRequest({
      messages: [
        assistant('', [{ id: 'call_1', name: 'get_weather', arguments: {} }]),
        toolMessage('call_1', '{}'),
        assistant('', [{ id: 'call_1', name: 'get_time', arguments: {} }]),
        toolMessage('call_1', '{}'),
      ],
    });
    expect(body.contents[3]?.parts[0]?.functionResponse?.name).toBe('get_time');
  });

  it('refuses a tool result that answers no earlier call', () => {
    expect(() => toGeminiRequest({ messages: [user('x'), toolMessage('call_9', '{}')] })).toThrow(
      RxAgentError,
    );
    expect(() => toGeminiRequest({ messages: [toolMessage('call_9', '{}')] })).toThrow(/call_9/);
  });

  it('sends Gemini’s own call ids and thought signatures back from the message metadata', () => {
    const metadata = {
      gemini: {
        thoughtSignature: 'sig-text',
        functionCalls: { 'fc-1': { id: 'fc-1', thoughtSignature: 'sig-call' }, call_2: {}, junk: 'x' },
      },
    };
    const body = toGeminiRequest({
      messages: [
        assistant(
          'Looking.',
          [
            { id: 'fc-1', name: 'get_weather', arguments: { city: 'Oslo' } },
            { id: 'call_2', name: 'get_time', arguments: {} },
          ],
          metadata,
        ),
        toolMessage('fc-1', '{"tempC":3}'),
        toolMessage('call_2', '{"time":"09:00"}'),
      ],
    });
    expect(body.contents).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Looking.', thoughtSignature: 'sig-text' },
          {
            functionCall: { id: 'fc-1', name: 'get_weather', args: { city: 'Oslo' } },
            thoughtSignature: 'sig-call',
          },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'fc-1', name: 'get_weather', response: { tempC: 3 } } },
          { functionResponse: { name: 'get_time', response: { time: '09:00' } } },
        ],
      },
    ]);
  });

  it('maps images to inlineData or fileData and files to inlineData', () => {
    const body = toGeminiRequest({
      messages: [
        user([
          { type: 'image', data: 'iVBORw0KGgo=' },
          { type: 'image', data: 'data:image/webp;base64,UklGRg==' },
          { type: 'image', url: 'data:image/gif;base64,R0lGOD==' },
          { type: 'image', url: 'https://example.com/cat.PNG?size=2' },
          { type: 'image', url: 'gs://bucket/photo', mediaType: 'image/heic' },
          { type: 'image', url: 'https://generativelanguage.googleapis.com/v1beta/files/abc' },
          { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
          { type: 'text', text: '' },
        ]),
      ],
    });
    expect(body.contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { inlineData: { mimeType: 'image/webp', data: 'UklGRg==' } },
      { inlineData: { mimeType: 'image/gif', data: 'R0lGOD==' } },
      { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/cat.PNG?size=2' } },
      { fileData: { mimeType: 'image/heic', fileUri: 'gs://bucket/photo' } },
      {
        fileData: {
          mimeType: 'image/jpeg',
          fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc',
        },
      },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
    ]);
    expect(() => toGeminiRequest({ messages: [user([{ type: 'image' }])] })).toThrow(/url or data/);
  });

  it('sends tool schemas as parametersJsonSchema (no hand conversion, no $schema), leaves out empty parameters, and maps toolChoice to toolConfig', () => {
    const body = toGeminiRequest({
      messages: 'Hi',
      tools: [
        weatherTool,
        { name: 'ping', description: 'Ping.', parameters: { type: 'object', properties: {} } },
      ],
      toolChoice: { name: 'get_weather' },
    });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Current weather for a city.',
            parametersJsonSchema: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
              additionalProperties: false,
            },
          },
          { name: 'ping', description: 'Ping.' },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
    const mode = (toolChoice: 'auto' | 'none' | 'required') =>
      toGeminiRequest({ messages: 'Hi', tools: [weatherTool], toolChoice }).toolConfig?.functionCallingConfig
        .mode;
    expect([mode('auto'), mode('none'), mode('required')]).toEqual(['AUTO', 'NONE', 'ANY']);
    expect(toGeminiRequest({ messages: 'Hi', toolChoice: 'required' })).not.toHaveProperty('toolConfig');
  });

  it('maps sampling, stop sequences, JSON replies and thinking into generationConfig', () => {
    const body = toGeminiRequest(
      {
        messages: 'Hi',
        temperature: 0.3,
        topP: 0.9,
        topK: 20,
        seed: 3,
        frequencyPenalty: 0.5,
        presencePenalty: 0.25,
        maxOutputTokens: 500,
        stop: ['END'],
        responseFormat: { type: 'json', schema: { type: 'object', properties: { a: { type: 'integer' } } } },
      },
      { thinking: { budgetTokens: 1024, includeThoughts: true } },
    );
    expect(body.generationConfig).toEqual({
      temperature: 0.3,
      topP: 0.9,
      topK: 20,
      seed: 3,
      frequencyPenalty: 0.5,
      presencePenalty: 0.25,
      maxOutputTokens: 500,
      stopSequences: ['END'],
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { a: { type: 'integer' } } },
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
    const schemaless = toGeminiRequest({ messages: 'Hi', responseFormat: { type: 'json' }, stop: [] });
    expect(schemaless.generationConfig).toEqual({ responseMimeType: 'application/json' });
  });

  it('lets providerOptions override thinking, merge into generationConfig and add wire fields', () => {
    const body = toGeminiRequest(
      { messages: 'Hi', temperature: 1 },
      {
        thinking: { budgetTokens: 1024 },
        wire: {
          thinking: { includeThoughts: true },
          generationConfig: { topK: 3, temperature: 0 },
          safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        },
      },
    );
    expect(body.generationConfig).toEqual({
      temperature: 0,
      topK: 3,
      thinkingConfig: { includeThoughts: true },
    });
    expect(body.safetySettings).toHaveLength(1);
    expect(body).not.toHaveProperty('thinking');
    const off = toGeminiRequest(
      { messages: 'Hi' },
      { thinking: { budgetTokens: 1 }, wire: { thinking: false } },
    );
    expect(off).not.toHaveProperty('generationConfig');
  });
});

describe('geminiCapabilities', () => {
  it.each([
    ['gemini-2.5-flash', true],
    ['models/gemini-2.5-pro', true],
    ['gemini-3-pro-preview', true],
    ['gemini-2.0-flash', false],
    ['gemini-2.0-flash-thinking-exp', true],
    ['gemini-1.5-pro', false],
    ['my-tuned-alias', true],
  ])('%s: reasoning %s, tools/vision/json', (id, reasoning) => {
    expect(geminiCapabilities(id)).toEqual({
      streaming: true,
      tools: true,
      vision: true,
      json: true,
      reasoning,
    });
  });

  it('Gemma has no function calling or JSON mode', () => {
    expect(geminiCapabilities('gemma-3-27b-it')).toMatchObject({
      tools: false,
      json: false,
      reasoning: false,
    });
  });
});
