import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/index.ts';
import { anthropic } from '../../../src/providers/anthropic/index.ts';
import { openai } from '../../../src/providers/openai/index.ts';
import { settle } from '../../support/settle.ts';
import type { ScriptedResponse } from '../../support/transcript-server.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { fixture } from './helpers.ts';

const servers = useTranscriptServer();
const retry = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 };
const failing = (status: number, shouldRetry: string): ScriptedResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'x-should-retry': shouldRetry },
  chunks: [JSON.stringify({ error: { message: 'no', type: 'x' } })],
});

describe('x-should-retry, obeyed as the official SDKs do', () => {
  it('true retries a status that is otherwise final (400), and the reply streams', async () => {
    const server = await servers.start([failing(400, 'true'), { chunks: [fixture('text.sse')] }]);
    const response = await openai('gpt-4o-mini', { baseURL: server.url, apiKey: 'k', retry }).complete({
      messages: 'hi',
    });
    expect(response.finishReason).toBe('stop');
    expect(server.requests).toHaveLength(2);
  });

  it('false forbids retrying a status that is otherwise retried (500), for OpenAI and Anthropic', async () => {
    const server = await servers.start([failing(500, 'false')]);
    const openaiModel = openai('gpt-4o-mini', { baseURL: server.url, apiKey: 'k', retry });
    const anthropicModel = anthropic('claude-sonnet-4-5', { baseURL: server.url, apiKey: 'k', retry });
    for (const model of [openaiModel, anthropicModel]) {
      const { error } = await settle(model.stream({ messages: 'hi' }));
      expect(ApiError.is(error) && error.status).toBe(500);
    }
    expect(server.requests).toHaveLength(2);
  });
});
