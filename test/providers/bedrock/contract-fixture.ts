import { expect } from 'vitest';
import { bedrock } from '../../../src/providers/bedrock/index.ts';
import type { ContractFixture } from '../contract-fixture.ts';
import {
  blockStop,
  encodeTranscript,
  ev,
  exc,
  meta,
  start,
  stop,
  text,
  toolInput,
  toolStart,
} from './event-stream.ts';

const json = { 'content-type': 'application/json' };
const reasoning = (t: string) =>
  ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: t } } });

/**
 * Bedrock ConverseStream transcripts as JSON lines (`{"event"|"exception": type, "payload": {...}}`),
 * turned into binary AWS event-stream frames by `encode`; events and exceptions as documented in the
 * Bedrock API reference (ConverseStreamOutput).
 */
export const bedrockFixture: ContractFixture = {
  name: 'bedrock',
  createModel: (baseURL, { retry }) =>
    bedrock('anthropic.claude-3-5-haiku-20241022-v1:0', {
      baseURL,
      retry,
      region: 'us-east-1',
      credentials: {
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      },
    }),
  transcripts: {
    text:
      start +
      text('Hello!') +
      text(' How can I') +
      text(' help you today?') +
      blockStop() +
      stop('end_turn') +
      meta(12, 9),
    reasoning:
      start +
      reasoning('Let me think.') +
      reasoning(' 6 times 7 is 42.') +
      ev('contentBlockDelta', {
        contentBlockIndex: 0,
        delta: { reasoningContent: { signature: 'sig-abc' } },
      }) +
      blockStop(0) +
      text('42.', 1) +
      blockStop(1) +
      stop('end_turn') +
      meta(20, 15),
    toolCall:
      start +
      toolStart(0, 'tooluse_1', 'get_weather') +
      toolInput(0, '{"city":') +
      toolInput(0, '"Paris"}') +
      blockStop(0) +
      stop('tool_use') +
      meta(30, 10),
    parallelToolCalls:
      start +
      toolStart(0, 'tooluse_1', 'get_weather') +
      toolInput(0, '{"city":"Paris"}') +
      blockStop(0) +
      toolStart(1, 'tooluse_2', 'get_time') +
      toolInput(1, '{"timezone":') +
      toolInput(1, '"Europe/Paris"}') +
      blockStop(1) +
      stop('tool_use') +
      meta(30, 20),
    midStreamError:
      start + text('Hel') + exc('serviceUnavailableException', { message: 'Overloaded. Try again.' }),
    truncated: start + text('Hel') + text('lo'),
    rateLimited: {
      status: 429,
      headers: {
        ...json,
        'retry-after': '0',
        'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/',
      },
      chunks: [
        JSON.stringify({ message: 'Rate limit: too many requests, please wait before trying again.' }),
      ],
    },
    badRequest: {
      status: 400,
      headers: {
        ...json,
        'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
      },
      chunks: [JSON.stringify({ message: 'Invalid request: the provided model identifier is invalid.' })],
    },
  },
  streamHeaders: { 'content-type': 'application/vnd.amazon.eventstream' },
  encode: encodeTranscript,
  assertToolResultRequest(body) {
    expect(body).toMatchObject({
      messages: [
        { role: 'user', content: [{ text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } } }],
        },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'call_1', content: [{ text: '{"tempC":18}' }] } }],
        },
      ],
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: 'get_weather',
              description: 'Current weather for a city.',
              inputSchema: { json: { type: 'object', required: ['city'] } },
            },
          },
        ],
      },
    });
  },
};
