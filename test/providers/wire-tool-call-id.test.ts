import { describe, expect, it } from 'vitest';
import { assistant, type Message, toolMessage, user } from '../../src/index.ts';
import { toAnthropicMessages } from '../../src/providers/anthropic/to-anthropic-messages.ts';
import { toBedrockMessages } from '../../src/providers/bedrock/bedrock-messages.ts';

/**
 * A history from an OpenAI-compatible server whose tool-call ids Anthropic's and Bedrock's
 * `^[a-zA-Z0-9_-]+$` (at most 64 characters on Bedrock) refuse — Moonshot's Kimi sends
 * `functions.get_weather:0` — continued on Anthropic or Bedrock (a fallback, a session moved).
 */
const foreign = ['functions.get_weather:0', 'functions.get_weather.0', `x${'é'.repeat(80)}`, 'call_ok-1'];
const history: Message[] = [
  user('Weather in Paris and Rome?'),
  assistant(
    '',
    foreign.map((id) => ({ id, name: 'get_weather', arguments: { city: id } })),
  ),
  ...foreign.map((id) => toolMessage(id, `{"for":"${id}"}`)),
];
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

function pairs(uses: string[], results: string[]) {
  expect(uses).toHaveLength(foreign.length);
  for (const id of [...uses, ...results]) expect(id).toMatch(VALID);
  expect(new Set(uses).size).toBe(uses.length); // distinct ids stay distinct
  expect(results).toEqual(uses); // each result still answers its own call
  expect(uses[3]).toBe('call_ok-1'); // a valid id is sent as it is
}

describe('tool-call ids the API refuses are rewritten the same way in calls and results', () => {
  it('anthropic', () => {
    const { messages } = toAnthropicMessages(history, false);
    const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const uses = blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    const results = blocks.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []));
    pairs(uses, results);
  });

  it('bedrock', () => {
    const { messages } = toBedrockMessages(history);
    const blocks = messages.flatMap((m) => m.content) as Record<string, { toolUseId?: string }>[];
    const uses = blocks.flatMap((b) => (b.toolUse?.toolUseId ? [b.toolUse.toolUseId] : []));
    const results = blocks.flatMap((b) => (b.toolResult?.toolUseId ? [b.toolResult.toolUseId] : []));
    pairs(uses, results);
  });
});
