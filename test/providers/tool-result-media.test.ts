import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.ts';
import {
  assistant,
  type ChatRequest,
  type ContentPart,
  InvalidRequestError,
  toolMessage,
  user,
} from '../../src/index.ts';
import { toAnthropicRequest } from '../../src/providers/anthropic/to-anthropic-request.ts';
import { buildConverseRequest } from '../../src/providers/bedrock/bedrock-request.ts';
import { toGeminiRequest } from '../../src/providers/gemini/to-gemini-request.ts';
import { buildOllamaRequest } from '../../src/providers/ollama/ollama-request.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { toOpenAIRequest } from '../../src/providers/openai/to-openai-request.ts';
import { defineTool } from '../../src/tools/index.ts';
import { readFixtures } from '../support/read-fixtures.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

// A real 1×1 PNG (its signature lets the media type be sniffed), as a tool returns it.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PNG = Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));
const chart: ContentPart[] = [
  { type: 'text', text: 'Sales by month:' },
  { type: 'image', data: PNG, mediaType: 'image/png' },
];
const request = (content: string | readonly ContentPart[]): ChatRequest => ({
  messages: [
    user('Chart the sales, and ping.'),
    assistant('', [
      { id: 'call_1', name: 'chart', arguments: {} },
      { id: 'call_2', name: 'ping', arguments: {} },
    ]),
    toolMessage('call_1', content),
    toolMessage('call_2', 'pong'),
  ],
});

describe('tool results with media, per provider', () => {
  it('OpenAI: tool messages stay text; the media follow in a user message right after them', () => {
    const body = toOpenAIRequest(request(chart), 'gpt-4o', {
      maxTokensField: 'max_completion_tokens',
      includeUsage: true,
    });
    expect(body.messages.slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: 'Sales by month:\n[media of this result follows in the next user message]',
      },
      { role: 'tool', tool_call_id: 'call_2', content: 'pong' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Media returned by tool call call_1:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
        ],
      },
    ]);
    expect(JSON.stringify(body)).not.toContain('"bytes"');
  });

  it('OpenAI: audio from a tool goes as input_audio', () => {
    const audio: ContentPart[] = [{ type: 'file', data: 'UklGRg==', mediaType: 'audio/wav' }];
    const body = toOpenAIRequest(request(audio), 'gpt-4o-audio-preview', {
      maxTokensField: 'max_tokens',
      includeUsage: false,
    });
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Media returned by tool call call_1:' },
        { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
      ],
    });
  });

  it('Anthropic: tool_result content blocks with the image', () => {
    const body = toAnthropicRequest('claude-sonnet-4-5', request(chart), { maxOutputTokens: 1024 });
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_1',
          content: [
            { type: 'text', text: 'Sales by month:' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
          ],
        },
        { type: 'tool_result', tool_use_id: 'call_2', content: 'pong' },
      ],
    });
  });

  it('Gemini: the media as the functionResponse parts', () => {
    const body = toGeminiRequest(request(chart));
    expect(body.contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            name: 'chart',
            response: { output: 'Sales by month:' },
            parts: [{ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }],
          },
        },
        { functionResponse: { name: 'ping', response: { output: 'pong' } } },
      ],
    });
  });

  it('Bedrock: toolResult content with an image block', () => {
    const body = buildConverseRequest(request(chart));
    const last = body.messages.at(-1);
    expect(last?.content[0]).toEqual({
      toolResult: {
        toolUseId: 'call_1',
        content: [{ text: 'Sales by month:' }, { image: { format: 'png', source: { bytes: PNG_BASE64 } } }],
      },
    });
  });

  it('Ollama: the tool message carries the image in images', () => {
    const body = buildOllamaRequest('llava', request(chart));
    expect(body.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'call_1')).toMatchObject({
      content: 'Sales by month:',
      images: [PNG_BASE64],
    });
  });

  it('a provider that cannot take a medium refuses it with InvalidRequestError, never a stub', () => {
    const audio: ContentPart[] = [{ type: 'file', data: 'UklGRg==', mediaType: 'audio/wav' }];
    const build = [
      () => toAnthropicRequest('claude-sonnet-4-5', request(audio), { maxOutputTokens: 1024 }),
      () => buildConverseRequest(request(audio)),
      () => buildOllamaRequest('llava', request(audio)),
      () => toGeminiRequest(request([{ type: 'image', url: 'https://example.com/a.png' }])),
    ];
    for (const attempt of build) expect(attempt).toThrow(InvalidRequestError);
  });
});

const openaiFixture = readFixtures(new URL('./openai/', import.meta.url).href);

describe('a tool image through an agent and a real HTTP provider', () => {
  const servers = useTranscriptServer();

  it('reaches the OpenAI server as an image part after the tool message, never as JSON', async () => {
    const server = await servers.start([
      { chunks: [openaiFixture('tool-call.sse')] },
      { chunks: [openaiFixture('text.sse')] },
    ]);
    const getWeather = defineTool({
      name: 'get_weather',
      description: 'Weather map.',
      input: { type: 'object', properties: { city: { type: 'string' } } },
      execute: () => PNG,
      toModelContent: (png) => [
        { type: 'text', text: 'Radar map:' },
        { type: 'image', data: png, mediaType: 'image/png' },
      ],
    });
    const model = openai('gpt-4o', { baseURL: server.url, apiKey: 'k', retry: false });
    await new Agent({ model, tools: [getWeather] }).chat('Weather?');
    const sent = server.requests[1]?.json as { messages: { role: string; content: unknown }[] };
    expect(sent.messages.slice(-2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: 'Radar map:\n[media of this result follows in the next user message]',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Media returned by tool call call_1:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
        ],
      },
    ]);
  });
});
