import { expect } from 'vitest';
import { openai } from '../../../src/providers/openai/index.ts';
import type { ContractFixture } from '../contract-fixture.ts';
import { fixture } from './helpers.ts';

const json = { 'content-type': 'application/json' };

/** The OpenAI provider's transcripts of the canonical contract scenarios. */
export const openaiFixture: ContractFixture = {
  name: 'openai',
  createModel: (baseURL, { retry }) =>
    openai('gpt-4o-mini', { baseURL: `${baseURL}/v1`, apiKey: 'sk-test', retry }),
  transcripts: {
    text: fixture('text.sse'),
    reasoning: fixture('reasoning.sse'),
    toolCall: fixture('tool-call.sse'),
    parallelToolCalls: fixture('parallel-tool-calls.sse'),
    midStreamError: fixture('mid-stream-error.sse'),
    truncated: fixture('truncated.sse'),
    rateLimited: {
      status: 429,
      headers: { ...json, 'retry-after': '0' },
      chunks: [fixture('error-429.json')],
    },
    badRequest: { status: 400, headers: json, chunks: [fixture('error-400.json')] },
  },
  streamHeaders: { 'content-type': 'text/event-stream; charset=utf-8' },
  assertToolResultRequest(body) {
    expect(body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"tempC":18}' },
      ],
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Current weather for a city.' } },
      ],
    });
  },
};
