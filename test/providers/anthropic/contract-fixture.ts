import { expect } from 'vitest';
import { anthropic } from '../../../src/providers/anthropic/index.ts';
import { readFixtures } from '../../support/read-fixtures.ts';
import type { ContractFixture } from '../contract-fixture.ts';

/** A transcript of `fixtures/`, written from Anthropic's documented Messages streaming format. */
export const anthropicTranscript = readFixtures(import.meta.url);

const jsonHeaders = { 'content-type': 'application/json', 'request-id': 'req_contract' };

/** Anthropic Messages API (`POST /v1/messages`, SSE with `event:` names). */
export const anthropicFixture: ContractFixture = {
  name: 'anthropic',
  createModel: (baseURL, { retry }) => anthropic('claude-sonnet-4-5', { baseURL, apiKey: 'test-key', retry }),
  transcripts: {
    text: anthropicTranscript('text.sse'),
    reasoning: anthropicTranscript('reasoning.sse'),
    toolCall: anthropicTranscript('tool-call.sse'),
    parallelToolCalls: anthropicTranscript('parallel-tool-calls.sse'),
    midStreamError: anthropicTranscript('mid-stream-error.sse'),
    truncated: anthropicTranscript('truncated.sse'),
    rateLimited: {
      status: 429,
      headers: { ...jsonHeaders, 'retry-after': '0' },
      chunks: [anthropicTranscript('error-429.json')],
    },
    badRequest: { status: 400, headers: jsonHeaders, chunks: [anthropicTranscript('error-400.json')] },
  },
  streamHeaders: { 'content-type': 'text/event-stream; charset=utf-8' },
  assertToolResultRequest(body) {
    expect(body).toMatchObject({
      model: 'claude-sonnet-4-5',
      stream: true,
      max_tokens: 64_000,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '{"tempC":18}' }] },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Current weather for a city.',
          input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
    });
  },
};
