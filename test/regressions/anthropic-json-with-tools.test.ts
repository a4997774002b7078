// Review of issue 7: a JSON reply is the synthetic `json` tool; forcing that tool while the
// request has tools of its own means the model can never call them (an agent with structured
// output would never use a tool). With other tools the model must call one of them or `json`.
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/index.ts';
import { toAnthropicRequest } from '../../src/providers/anthropic/to-anthropic-request.ts';

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
