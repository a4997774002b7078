import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { assistant, toolMessage, user } from '../../../src/core/index.ts';
import { createGeminiMapper } from '../../../src/providers/gemini/create-gemini-mapper.ts';
import { gemini } from '../../../src/providers/gemini/index.ts';
import { toGeminiRequest } from '../../../src/providers/gemini/to-gemini-request.ts';
import { requestToolNames } from '../../../src/providers/shared/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';

const servers = useTranscriptServer();
const tool = (name: string) => ({
  name,
  description: 'd',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
});
const finishChunk = 'data: {"candidates":[{"content":{"parts":[{"text":"ok"}]},"finishReason":"STOP"}]}\n\n';

describe('gemini request fields', () => {
  it('reads only providerOptions.gemini', async () => {
    const recorded = await servers.start(() => ({
      headers: { 'content-type': 'text/event-stream' },
      chunks: [finishChunk],
    }));
    await gemini('gemini-2.5-flash', { apiKey: 'k', baseURL: servers.url, retry: false }).complete({
      messages: 'hi',
      providerOptions: {
        anthropic: { thinking: { budgetTokens: 2048 } },
        gemini: { safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }] },
      },
    });
    const body = recorded.requests[0]?.json as Record<string, unknown>;
    expect(body).toHaveProperty('safetySettings');
    expect(body).not.toHaveProperty('thinking');
    expect(body).not.toHaveProperty('anthropic');
  });

  it('a zod response schema goes out as responseJsonSchema, not its internals', () => {
    const body = toGeminiRequest({
      messages: 'hi',
      responseFormat: { type: 'json', schema: z.object({ city: z.string() }) },
    });
    expect(body.generationConfig?.responseJsonSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
  });

  it('a failed tool outcome is sent as { error }', () => {
    const body = toGeminiRequest({
      messages: [
        user('go'),
        assistant('', [{ id: 'c1', name: 'lookup', arguments: {} }]),
        toolMessage('c1', 'not found', { isError: true }),
      ],
    });
    expect(body.contents[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'lookup', response: { error: 'not found' } } }],
    });
  });

  it('bytes and URL objects as inline data and file data', () => {
    const body = toGeminiRequest({
      messages: [
        user([
          { type: 'image', data: new Uint8Array([0xff, 0xd8, 0xff]) },
          { type: 'image', url: new URL('https://example.com/x.webp') },
          { type: 'file', data: new Uint8Array([37, 80, 68, 70]), mediaType: 'application/pdf' },
        ]),
      ],
    });
    expect(body.contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'image/jpeg', data: '/9j/' } },
      { fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/x.webp' } },
      { inlineData: { mimeType: 'application/pdf', data: 'JVBERg==' } },
    ]);
  });

  it('tool names with spaces or over 64 characters are encoded in tools, config and history, and decoded back', () => {
    const name = `search ${'y'.repeat(70)}`;
    const request = {
      messages: [user('go'), assistant('', [{ id: 'c1', name, arguments: {} }]), toolMessage('c1', '{}')],
      tools: [tool(name)],
      toolChoice: { name },
    };
    const toolNames = requestToolNames(request);
    const body = toGeminiRequest(request, { toolNames });
    const wireName = body.tools?.[0]?.functionDeclarations[0]?.name as string;
    expect(wireName).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(body.toolConfig?.functionCallingConfig.allowedFunctionNames).toEqual([wireName]);
    expect(body.contents[1]?.parts[0]).toMatchObject({ functionCall: { name: wireName } });
    expect(body.contents[2]?.parts[0]).toMatchObject({ functionResponse: { name: wireName } });
    const events = createGeminiMapper(toolNames).map({
      data: JSON.stringify({
        candidates: [{ content: { parts: [{ functionCall: { name: wireName, args: {} } }] } }],
      }),
    } as never);
    expect(events[0]).toMatchObject({ type: 'tool-call-delta', name });
  });
});
