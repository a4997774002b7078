// Review of issue 7: OpenAI's reasoning models (o1, o3, o4-mini, gpt-5) answer HTTP 400 to
// temperature, top_p and the penalties ("Unsupported parameter" / "Only the default (1) value is
// supported"), so a request with them, e.g. through fallback([anthropic(...), openai('o3')]), failed.
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/index.ts';
import { toOpenAIRequest } from '../../src/providers/openai/to-openai-request.ts';
import { azureOpenAI, openai, openaiCompatible } from '../../src/providers/openai/index.ts';
import { settle } from '../support/settle.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const sampled: ChatRequest = {
  messages: 'hi',
  temperature: 0.2,
  topP: 0.9,
  frequencyPenalty: 0.5,
  presencePenalty: 0.5,
  seed: 7,
};
const base = { maxTokensField: 'max_completion_tokens', includeUsage: true } as const;

describe('openai: sampling fields of reasoning models', () => {
  it('are left out for a reasoning model, kept otherwise', () => {
    const reasoning = toOpenAIRequest(sampled, 'o3', { ...base, reasoningModel: true });
    for (const field of ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty'])
      expect(reasoning).not.toHaveProperty(field);
    expect(reasoning.seed).toBe(7);
    expect(toOpenAIRequest(sampled, 'gpt-4o', base)).toMatchObject({ temperature: 0.2, top_p: 0.9 });
  });

  it('are kept with reasoning_effort none (gpt-5.1 takes them then) or when set in providerOptions', () => {
    const none = toOpenAIRequest(sampled, 'gpt-5.1', {
      ...base,
      reasoningModel: true,
      wire: { reasoning_effort: 'none' },
    });
    expect(none).toMatchObject({ temperature: 0.2, top_p: 0.9 });
    const explicit = toOpenAIRequest(sampled, 'o3', {
      ...base,
      reasoningModel: true,
      wire: { temperature: 1 },
    });
    expect(explicit.temperature).toBe(1);
  });

  const servers = useTranscriptServer();
  it('openai() and azureOpenAI() leave them out for o3 and gpt-5, a compatible server keeps them', async () => {
    const server = await servers.start([{ status: 500, chunks: ['{}'] }]);
    const models = [
      openai('o3', { baseURL: server.url, apiKey: 'k' }),
      openai('gpt-5-mini', { baseURL: server.url, apiKey: 'k' }),
      azureOpenAI('o4-mini', { baseURL: server.url, apiKey: 'k' }),
      openai('gpt-5-chat-latest', { baseURL: server.url, apiKey: 'k' }),
      openaiCompatible('o3', { baseURL: server.url, name: 'proxy' }),
    ];
    for (const model of models) await settle(model.stream(sampled, { retry: false }));
    const temperatures = server.requests.map((r) => (r.json as { temperature?: number }).temperature);
    expect(temperatures).toEqual([undefined, undefined, undefined, 0.2, 0.2]);
  });
});
