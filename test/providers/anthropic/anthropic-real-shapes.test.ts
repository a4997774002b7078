import { describe, expect, it } from 'vitest';
import { assistant, InvalidRequestError, priceOf, toolMessage, user } from '../../../src/index.ts';
import { anthropic } from '../../../src/providers/anthropic/index.ts';
import { randomSplit } from '../../support/split.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { readFixtures } from '../../support/read-fixtures.ts';

const fixture = readFixtures(import.meta.url);
const servers = useTranscriptServer();
const SSE = { 'content-type': 'text/event-stream' };
const model = (options: Parameters<typeof anthropic>[1] = {}) =>
  anthropic('claude-sonnet-4-5', { baseURL: servers.url, apiKey: 'test-key', retry: false, ...options });

describe('anthropic usage as the API reports it', () => {
  it('thinking tokens become reasoningTokens; 1-hour cache writes cost twice the input rate', async () => {
    await servers.start([
      { headers: SSE, chunks: randomSplit(fixture('usage-1h-cache-thinking.sse'), 7, 80) },
    ]);
    const response = await model().complete({ messages: 'What is 6 times 7?' });
    expect(response.usage).toEqual({
      inputTokens: 23_050,
      outputTokens: 400,
      totalTokens: 23_450,
      cachedInputTokens: 20_000,
      cacheWriteTokens: 3000,
      cacheWrite1hTokens: 2000,
      reasoningTokens: 380,
    });
    // Sonnet 4.5: $3 in, $15 out, $0.30 cache read, $3.75 5-minute write, $6 1-hour write (per MTok).
    expect(priceOf('claude-sonnet-4-5')?.cacheWrite1hPerMTok).toBe(6);
    const input = (50 * 3 + 20_000 * 0.3 + 1000 * 3.75 + 2000 * 6) / 1e6;
    expect(response.cost?.inputUsd).toBeCloseTo(input, 12);
    expect(response.cost?.outputUsd).toBeCloseTo((400 * 15) / 1e6, 12);
  });
});

describe('anthropic requests the API would refuse', () => {
  const history = [
    user('Weather in Oslo?'),
    // A tool turn another provider made (fallback): no Anthropic thinking block to send back.
    assistant('', [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }]),
    toolMessage('call_1', '{"tempC":4}'),
  ];
  const tools = [{ name: 'get_weather', description: 'Weather.', parameters: { type: 'object' } }];

  it('sends a tool-loop request without thinking when its tool turn has no thinking block', async () => {
    const server = await servers.start([{ headers: SSE, chunks: [fixture('text.sse')] }]);
    const thinking = model({ thinking: { budgetTokens: 2048 } });
    await thinking.complete({ messages: history, tools });
    await thinking.complete({ messages: [...history.slice(0, 1)], tools });
    const [adapted, fresh] = server.requests.map((r) => r.json as Record<string, unknown>);
    expect(adapted).not.toHaveProperty('thinking');
    expect(adapted?.messages).toEqual([
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '{"tempC":4}' }] },
    ]);
    expect(fresh).toMatchObject({ thinking: { type: 'enabled' } });
  });

  it('refuses what it cannot express with InvalidRequestError, before sending', async () => {
    const server = await servers.start([{ headers: SSE, chunks: [fixture('text.sse')] }]);
    const noId = { role: 'tool' as const, content: 'x' };
    const badImage = user([{ type: 'image' }]);
    for (const messages of [[user('x'), noId], [badImage]]) {
      const error = await model()
        .complete({ messages })
        .catch((e: unknown) => e);
      expect(InvalidRequestError.is(error)).toBe(true);
      expect(error).toMatchObject({ provider: 'anthropic', option: 'messages' });
    }
    expect(server.requests).toHaveLength(0);
  });
});
