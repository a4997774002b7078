import { expect } from 'vitest';
import { ollama } from '../../../src/providers/ollama/index.ts';
import type { ContractFixture } from '../contract-fixture.ts';

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const at = '2025-01-01T00:00:00.000Z';
const chunk = (message: Record<string, unknown>) =>
  line({
    model: 'llama3.2',
    created_at: at,
    message: { role: 'assistant', content: '', ...message },
    done: false,
  });
const done = (reason: string, prompt: number, output: number) =>
  line({
    model: 'llama3.2',
    created_at: at,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: reason,
    total_duration: 1_000_000,
    load_duration: 10_000,
    prompt_eval_count: prompt,
    prompt_eval_duration: 20_000,
    eval_count: output,
    eval_duration: 30_000,
  });

/** Ollama `/api/chat` NDJSON transcripts, as documented in ollama/docs/api.md. */
export const ollamaFixture: ContractFixture = {
  name: 'ollama',
  createModel: (baseURL, { retry }) => ollama('llama3.2', { baseURL, retry }),
  transcripts: {
    text:
      chunk({ content: 'Hello!' }) +
      chunk({ content: ' How can I' }) +
      chunk({ content: ' help you today?' }) +
      done('stop', 12, 9),
    reasoning:
      chunk({ thinking: 'Let me think.' }) +
      chunk({ thinking: ' 6 times 7 is 42.' }) +
      chunk({ content: '42.' }) +
      done('stop', 20, 15),
    toolCall:
      chunk({ tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }] }) +
      done('stop', 30, 10),
    parallelToolCalls:
      chunk({
        tool_calls: [
          { function: { index: 0, name: 'get_weather', arguments: { city: 'Paris' } } },
          { function: { index: 1, name: 'get_time', arguments: { timezone: 'Europe/Paris' } } },
        ],
      }) + done('stop', 30, 20),
    midStreamError: chunk({ content: 'Hel' }) + line({ error: 'Overloaded: the model runner is busy' }),
    truncated: chunk({ content: 'Hel' }) + chunk({ content: 'lo' }),
    rateLimited: {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '0' },
      chunks: [line({ error: 'Rate limit exceeded, try again later' })],
    },
    badRequest: {
      status: 400,
      headers: { 'content-type': 'application/json' },
      chunks: [line({ error: 'Invalid request: messages must not be empty' })],
    },
  },
  streamHeaders: { 'content-type': 'application/x-ndjson' },
  assertToolResultRequest(body) {
    expect(body).toMatchObject({
      model: 'llama3.2',
      stream: true,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
        },
        { role: 'tool', content: '{"tempC":18}', tool_name: 'get_weather' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Current weather for a city.' },
        },
      ],
    });
  },
};
