// Review of issue 7: a JSON reply is the synthetic `json` tool; forcing that tool while the
// request has tools of its own means the model can never call them (an agent with structured
// output would never use a tool). With other tools the model must call one of them or `json`.
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { toAnthropicRequest } from '../../src/providers/anthropic/to-anthropic-request.ts';
import { startTranscriptServer } from '../support/transcript-server.ts';

const tools: ChatRequest['tools'] = [
  {
    name: 'lookup',
    description: 'Looks up',
    parameters: { type: 'object', properties: { q: { type: 'string' } } },
  },
];
const responseFormat = { type: 'json', schema: { type: 'object' } } as const;
const body = (request: Partial<ChatRequest>) =>
  toAnthropicRequest('claude-sonnet-4-5', { messages: 'hi', ...request }, { maxOutputTokens: 1024 });

describe('anthropic: a JSON reply beside the request tools', () => {
  it('lets the model call any tool (its own or json) instead of forcing json', () => {
    const sent = body({ tools, responseFormat });
    expect(sent.tools?.map((tool) => tool.name)).toEqual(['lookup', 'json']);
    expect(sent.tool_choice).toEqual({ type: 'any' });
  });

  it('keeps a tool the caller forced, and forces json when the caller turned tools off', () => {
    expect(body({ tools, responseFormat, toolChoice: { name: 'lookup' } }).tool_choice).toEqual({
      type: 'tool',
      name: 'lookup',
    });
    expect(body({ tools, responseFormat, toolChoice: 'none' }).tool_choice).toEqual({
      type: 'tool',
      name: 'json',
    });
  });

  it('without tools still forces json', () => {
    expect(body({ responseFormat }).tool_choice).toEqual({ type: 'tool', name: 'json' });
  });
});

describe('anthropic: a request tool named json beside a JSON reply', () => {
  const jsonTools: ChatRequest['tools'] = [
    { name: 'json', description: 'Formats JSON', parameters: { type: 'object' } },
  ];
  it('keeps both tools apart (the API refuses two tools of one name)', () => {
    const sent = body({ tools: jsonTools, responseFormat });
    const names = sent.tools?.map((tool) => tool.name) ?? [];
    expect(new Set(names).size).toBe(2);
    expect(names[0]).toBe('json');
  });

  it('a call of the request tool json stays a tool call, the reply tool becomes text', async () => {
    const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    const replyTool = (toAnthropic: string) => [
      sse('message_start', { message: { id: 'm1', model: 'claude-sonnet-4-5', usage: { input_tokens: 1 } } }),
      sse('content_block_start', {
        index: 0,
        content_block: { type: 'tool_use', id: 't1', name: toAnthropic, input: {} },
      }),
      sse('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } }),
      sse('content_block_stop', { index: 0 }),
      sse('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } }),
      sse('message_stop', {}),
    ];
    const sent = body({ tools: jsonTools, responseFormat });
    const replyName = sent.tools?.[1]?.name ?? '';
    const server = await startTranscriptServer([
      { chunks: replyTool('json') },
      { chunks: replyTool(replyName) },
    ]);
    try {
      const model = anthropic('claude-sonnet-4-5', { baseURL: server.url, apiKey: 'k' });
      const request = { messages: 'hi', tools: jsonTools, responseFormat } as const;
      const toolTurn = await model.complete(request, { retry: false });
      expect(toolTurn.toolCalls.map((call) => call.name)).toEqual(['json']);
      const replyTurn = await model.complete(request, { retry: false });
      expect(replyTurn.toolCalls).toEqual([]);
      expect(replyTurn.object).toEqual({ a: 1 });
    } finally {
      await server.close();
    }
  });
});
