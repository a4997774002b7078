import type { Fixture } from './fixtures.ts';

const CREATED = 1_735_000_000;
const MODEL = 'gpt-4o-mini-2024-07-18';

/** The fields every chat.completion.chunk carries. */
const ENVELOPE = {
  id: 'chatcmpl-bench0123456789',
  object: 'chat.completion.chunk',
  created: CREATED,
  model: MODEL,
  service_tier: 'default',
  system_fingerprint: 'fp_bench01',
};

/** One chat.completion.chunk as OpenAI sends it (`usage: null` on every chunk when include_usage is on). */
function chunk(delta: Record<string, unknown>, finishReason: string | null): string {
  const body = {
    ...ENVELOPE,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

function usageChunk(completionTokens: number): string {
  const body = {
    ...ENVELOPE,
    choices: [],
    usage: {
      prompt_tokens: 12,
      completion_tokens: completionTokens,
      total_tokens: 12 + completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/**
 * The SSE events of one OpenAI chat-completions stream (stream_options.include_usage shape):
 * a role chunk, one chunk per token or per argument fragment, a finish chunk, a usage chunk, `[DONE]`.
 * Parallel tool calls arrive one after the other, as OpenAI sends them.
 */
export function renderOpenAI(fixture: Fixture): string[] {
  const events: string[] = [];
  const isTools = fixture.toolCalls.length > 0;
  events.push(chunk({ role: 'assistant', content: isTools ? null : '', refusal: null }, null));
  for (const token of fixture.tokens) events.push(chunk({ content: token }, null));
  fixture.toolCalls.forEach((call, index) => {
    events.push(
      chunk(
        {
          tool_calls: [
            { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        },
        null,
      ),
    );
    for (const fragment of call.fragments) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }, null));
    }
  });
  events.push(chunk({}, isTools ? 'tool_calls' : 'stop'));
  const completionTokens =
    fixture.tokens.length + fixture.toolCalls.reduce((n, c) => n + c.fragments.length, 0);
  events.push(usageChunk(completionTokens));
  events.push('data: [DONE]\n\n');
  return events;
}
