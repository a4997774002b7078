import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fallback } from '../../src/models/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { startTranscriptServer, type TranscriptServer } from '../support/transcript-server.ts';

const openAIText =
  'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n' +
  'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
const overloaded = JSON.stringify({
  type: 'error',
  error: { type: 'overloaded_error', message: 'Overloaded' },
});

let claude: TranscriptServer;
let gpt: TranscriptServer;
beforeAll(async () => {
  claude = await startTranscriptServer(() => ({
    status: 529,
    headers: { 'content-type': 'application/json' },
    chunks: [overloaded],
  }));
  gpt = await startTranscriptServer(() => ({
    headers: { 'content-type': 'text/event-stream' },
    chunks: [openAIText],
  }));
});
afterAll(async () => {
  await claude.close();
  await gpt.close();
});

describe('providerOptions keyed by provider through fallback()', () => {
  it('Anthropic thinking options reach Anthropic only; OpenAI gets its own and never `thinking`', async () => {
    const model = fallback([
      anthropic('claude-sonnet-4-5', { apiKey: 'k', baseURL: claude.url, retry: false }),
      openai('gpt-4o', { apiKey: 'k', baseURL: gpt.url, retry: false }),
    ]);
    const response = await model.complete({
      messages: 'hi',
      maxOutputTokens: 4096,
      providerOptions: {
        anthropic: { thinking: { budgetTokens: 2048 } },
        openai: { reasoning_effort: 'low' },
      },
    });
    expect(response.text).toBe('Hi');
    expect(claude.requests[0]?.json).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(claude.requests[0]?.json).not.toHaveProperty('reasoning_effort');
    const sent = gpt.requests[0]?.json as Record<string, unknown>;
    expect(sent).toMatchObject({ reasoning_effort: 'low' });
    expect(sent).not.toHaveProperty('thinking');
    expect(sent).not.toHaveProperty('anthropic');
  });
});
