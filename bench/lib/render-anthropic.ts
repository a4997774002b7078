import type { Fixture } from './fixtures.ts';

const event = (name: string, data: Record<string, unknown>): string =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

/**
 * The SSE events of one Anthropic Messages stream: message_start, a ping, one content block
 * (text with one text_delta per token, or one tool_use with one input_json_delta per fragment),
 * content_block_stop, message_delta (stop reason, output usage), message_stop.
 */
export function renderAnthropic(fixture: Fixture): string[] {
  const events: string[] = [];
  const isTools = fixture.toolCalls.length > 0;
  events.push(
    event('message_start', {
      message: {
        id: 'msg_bench0123456789',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: 12,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
          service_tier: 'standard',
        },
      },
    }),
  );
  let outputTokens = 0;
  if (isTools) {
    fixture.toolCalls.forEach((call, index) => {
      events.push(
        event('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
        }),
      );
      if (index === 0) events.push(event('ping', {}));
      events.push(
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } }),
      );
      for (const fragment of call.fragments) {
        events.push(
          event('content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json: fragment },
          }),
        );
      }
      events.push(event('content_block_stop', { index }));
      outputTokens += call.fragments.length;
    });
  } else {
    events.push(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    events.push(event('ping', {}));
    for (const token of fixture.tokens) {
      events.push(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: token } }));
    }
    events.push(event('content_block_stop', { index: 0 }));
    outputTokens = fixture.tokens.length;
  }
  events.push(
    event('message_delta', {
      delta: { stop_reason: isTools ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }),
  );
  events.push(event('message_stop', {}));
  return events;
}
