import { describe, expect, it } from 'vitest';
import type { ChatModel, ModelPrice } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { bedrock } from '../../src/providers/bedrock/index.ts';
import { gemini } from '../../src/providers/gemini/index.ts';
import { ollama } from '../../src/providers/ollama/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { encodeTranscript, start, stop, text } from '../providers/bedrock/event-stream.ts';
import type { ScriptedResponse } from '../support/transcript-server.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

// Before: every provider filled a missing usage with zeros, so a priced model reported a `$0` cost.
const price: ModelPrice = { inputPerMTok: 1, outputPerMTok: 2 };
const sse = (...events: unknown[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
const anthropicSse = (...events: { type: string }[]) =>
  events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');

interface Case {
  name: string;
  model: (baseURL: string) => ChatModel;
  body: ScriptedResponse;
}

const cases: Case[] = [
  {
    name: 'openai (no usage chunk)',
    model: (baseURL) => openai('gpt-4o-mini', { baseURL: `${baseURL}/v1`, apiKey: 'sk-test', price }),
    body: {
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        sse({ id: 'c1', choices: [{ index: 0, delta: { content: 'Hi.' }, finish_reason: 'stop' }] }) +
          'data: [DONE]\n\n',
      ],
    },
  },
  {
    name: 'anthropic (no usage object)',
    model: (baseURL) => anthropic('claude-sonnet-4-5', { baseURL, apiKey: 'test-key', price }),
    body: {
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        anthropicSse(
          { type: 'message_start', message: { id: 'msg_1', model: 'claude-sonnet-4-5' } } as { type: string },
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } as {
            type: string;
          },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi.' } } as {
            type: string;
          },
          { type: 'content_block_stop', index: 0 } as { type: string },
          { type: 'message_delta', delta: { stop_reason: 'end_turn' } } as { type: string },
          { type: 'message_stop' },
        ),
      ],
    },
  },
  {
    name: 'gemini (no usageMetadata)',
    model: (baseURL) => gemini('gemini-2.5-flash', { baseURL, apiKey: 'test-key', price }),
    body: {
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        sse({ candidates: [{ content: { parts: [{ text: 'Hi.' }], role: 'model' }, finishReason: 'STOP' }] }),
      ],
    },
  },
  {
    name: 'ollama (no eval counts)',
    model: (baseURL) => ollama('llama3.2', { baseURL, price }),
    body: {
      headers: { 'content-type': 'application/x-ndjson' },
      chunks: [
        `${JSON.stringify({ model: 'llama3.2', message: { role: 'assistant', content: 'Hi.' }, done: false })}\n` +
          `${JSON.stringify({ model: 'llama3.2', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' })}\n`,
      ],
    },
  },
  {
    name: 'bedrock (no metadata event)',
    model: (baseURL) =>
      bedrock('amazon.nova-micro-v1:0', {
        baseURL,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
        price,
      }),
    body: {
      headers: { 'content-type': 'application/vnd.amazon.eventstream' },
      chunks: [encodeTranscript(start + text('Hi.') + stop('end_turn'))],
    },
  },
];

describe('a turn whose provider reported no usage has no usage and no cost', () => {
  const servers = useTranscriptServer();
  for (const { name, model, body } of cases) {
    it(name, async () => {
      const server = await servers.start([body]);
      const response = await model(server.url).complete({ messages: 'Hi' });
      expect(response).toMatchObject({ text: 'Hi.', finishReason: 'stop' });
      expect(response).not.toHaveProperty('usage');
      expect(response).not.toHaveProperty('cost');
    });
  }
});
