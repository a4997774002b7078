// Review of issue 7: Claude on Bedrock refuses extended thinking with a forced tool ("Thinking may
// not be enabled when tool_choice forces tool use"), as the Anthropic API does; the anthropic
// provider refuses it before sending, bedrock sent it.
import { describe, expect, it } from 'vitest';
import { type ChatRequest, InvalidRequestError } from '../../src/index.ts';
import { buildConverseRequest } from '../../src/providers/bedrock/bedrock-request.ts';

const tools: ChatRequest['tools'] = [
  { name: 'lookup', description: 'Looks up', parameters: { type: 'object', properties: {} } },
];
const thinking = { thinking: { type: 'enabled', budget_tokens: 2048 } };

describe('bedrock: thinking with a forced tool', () => {
  it.each([['required' as const], [{ name: 'lookup' }]])(
    'toolChoice %j is an InvalidRequestError',
    (toolChoice) => {
      const request: ChatRequest = { messages: 'hi', tools, toolChoice };
      const fromOptions = () => buildConverseRequest(request, thinking);
      const fromDefaults = () => buildConverseRequest(request, {}, thinking);
      for (const build of [fromOptions, fromDefaults]) {
        expect(build).toThrow(InvalidRequestError);
        expect(build).toThrow(/thinking/);
      }
    },
  );

  it('auto, or thinking off, is sent as before', () => {
    expect(
      buildConverseRequest({ messages: 'hi', tools, toolChoice: 'auto' }, thinking).toolConfig,
    ).toBeDefined();
    expect(
      buildConverseRequest({ messages: 'hi', tools, toolChoice: 'required' }, {}).toolConfig?.toolChoice,
    ).toEqual({ any: {} });
  });
});
