import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';
import { weatherTool } from './weather-tools.ts';

const servers = useTranscriptServer();
const frame = (data: { type: string }) => `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

/** One Anthropic Messages stream: a text block or tool_use blocks. */
function anthropicFrames(turn: { text?: string; toolUses?: { id: string; name: string; input: string }[] }) {
  const start = frame({
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [],
      model: 'claude-sonnet-4-5-20250929',
      stop_reason: null,
      usage: { input_tokens: 30, output_tokens: 1 },
    },
  } as { type: string });
  const blocks: string[] = [];
  if (turn.text !== undefined) {
    blocks.push(
      frame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } as {
        type: string;
      }),
      frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } } as {
        type: string;
      }),
      frame({ type: 'content_block_stop', index: 0 } as { type: string }),
    );
  }
  (turn.toolUses ?? []).forEach((use, index) => {
    blocks.push(
      frame({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: use.id, name: use.name, input: {} },
      } as { type: string }),
      frame({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: use.input },
      } as {
        type: string;
      }),
      frame({ type: 'content_block_stop', index } as { type: string }),
    );
  });
  const stop = turn.toolUses?.length ? 'tool_use' : 'end_turn';
  return [
    start,
    ...blocks,
    frame({ type: 'message_delta', delta: { stop_reason: stop }, usage: { output_tokens: 10 } } as {
      type: string;
    }),
    frame({ type: 'message_stop' }),
  ];
}

describe('the agent loop against anthropic()', () => {
  it('tool call → tool_result (is_error for a bad call) → answer', async () => {
    const server = await servers.start([
      {
        chunks: anthropicFrames({ toolUses: [{ id: 'toolu_1', name: 'get_weather', input: '{"city": 7}' }] }),
      },
      {
        chunks: anthropicFrames({
          toolUses: [{ id: 'toolu_2', name: 'get_weather', input: '{"city": "Oslo"}' }],
        }),
      },
      { chunks: anthropicFrames({ text: 'It is 18 °C in Oslo.' }) },
    ]);
    const model = anthropic('claude-sonnet-4-5', {
      apiKey: 'sk-ant-test',
      baseURL: server.url,
      retry: false,
    });
    const agent = new Agent({ model, tools: [weatherTool()], system: 'Be brief.' });
    const events = await lastValueFrom(agent.run('Weather in Oslo?').pipe(toArray()));
    expect(events.at(-1)).toMatchObject({
      type: 'agent-completed',
      result: { text: 'It is 18 °C in Oslo.' },
    });
    expect(server.requests.map((request) => request.url)).toEqual([
      '/v1/messages',
      '/v1/messages',
      '/v1/messages',
    ]);
    const last = server.requests[2]?.json as { system: unknown; messages: unknown[] };
    expect(last.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 7 } }],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: expect.any(String), is_error: true },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: '{"city":"Oslo","tempC":18}' }],
      },
    ]);
  });
});
