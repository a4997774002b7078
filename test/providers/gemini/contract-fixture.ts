import { expect } from 'vitest';
import { gemini } from '../../../src/providers/gemini/index.ts';
import { readFixtures } from '../../support/read-fixtures.ts';
import type { ContractFixture } from '../contract-fixture.ts';

/** A transcript of `fixtures/`, written from the Gemini API's documented `alt=sse` stream format. */
export const geminiTranscript = readFixtures(import.meta.url);

const jsonHeaders = { 'content-type': 'application/json; charset=UTF-8' };

/** Gemini API (`POST /models/{model}:streamGenerateContent?alt=sse`, SSE of JSON chunks). */
export const geminiFixture: ContractFixture = {
  name: 'gemini',
  createModel: (baseURL, { retry }) => gemini('gemini-2.5-flash', { baseURL, apiKey: 'test-key', retry }),
  transcripts: {
    text: geminiTranscript('text.sse'),
    reasoning: geminiTranscript('reasoning.sse'),
    toolCall: geminiTranscript('tool-call.sse'),
    parallelToolCalls: geminiTranscript('parallel-tool-calls.sse'),
    midStreamError: geminiTranscript('mid-stream-error.sse'),
    truncated: geminiTranscript('truncated.sse'),
    rateLimited: {
      status: 429,
      headers: { ...jsonHeaders, 'retry-after': '0' },
      chunks: [geminiTranscript('error-429.json')],
    },
    badRequest: { status: 400, headers: jsonHeaders, chunks: [geminiTranscript('error-400.json')] },
  },
  streamHeaders: { 'content-type': 'text/event-stream' },
  assertToolResultRequest(body) {
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { tempC: 18 } } }] },
      ],
      tools: [
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
          ],
        },
      ],
    });
  },
};
