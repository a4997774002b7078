import { describe, expect, it } from 'vitest';
import { modelPrices, priceOf } from '../../src/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

// Before: the longest listed prefix of the id gave the price, so each of these cost as a sibling.
describe('prices match the exact model id, never a family prefix', () => {
  it.each([
    ['o1-mini', 1.1, 4.4], // was o1's $15 / $60
    ['o1-pro', 150, 600], // was o1's
    ['o3-pro', 20, 80], // was o3's $2 / $8
    ['gpt-5-pro', 15, 120], // was gpt-5's $1.25 / $10
    ['gpt-4o-2024-05-13', 5, 15], // was gpt-4o's $2.50 / $10
    ['gpt-4o-2024-08-06', 2.5, 10],
    ['gpt-4o-mini-2024-07-18', 0.15, 0.6],
    ['claude-sonnet-4-20250514', 3, 15],
    ['models/gemini-2.5-flash', 0.3, 2.5],
  ])('%s costs $%d in, $%d out per MTok', (id, inputPerMTok, outputPerMTok) => {
    expect(priceOf(id)).toMatchObject({ inputPerMTok, outputPerMTok });
  });

  it.each([
    'gpt-4o-mini-2099-01-01', // a snapshot nobody listed
    'gpt-4o-audio-preview', // a different model that shares the prefix
    'ft:gpt-4o-mini-2024-07-18:acme::abc123', // a fine-tune, priced differently
    'o1-preview-2024-09-12',
    'claude-sonnet-4-5-20991231',
    'gemini-2.5-flash-preview-tts',
    'llama3.2',
    'constructor', // not an inherited property either
    'toString',
  ])('%s has no price', (id) => {
    expect(priceOf(id)).toBeUndefined();
  });

  it('every listed price is complete and positive', () => {
    for (const [id, price] of Object.entries(modelPrices)) {
      expect(id).toBe(id.toLowerCase());
      for (const value of Object.values(price)) expect(value, id).toBeGreaterThan(0);
      expect(Object.isFrozen(price), id).toBe(true);
    }
  });

  describe('a response', () => {
    const servers = useTranscriptServer();
    const body = (model: string) => ({
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        `data: ${JSON.stringify({ id: 'c', model, choices: [{ index: 0, delta: { content: 'Hi.' }, finish_reason: 'stop' }] })}\n\n` +
          `data: ${JSON.stringify({ id: 'c', model, choices: [], usage: { prompt_tokens: 1000, completion_tokens: 1000, total_tokens: 2000 } })}\n\n` +
          'data: [DONE]\n\n',
      ],
    });

    it('of o1-mini is priced at o1-mini rates', async () => {
      const server = await servers.start([body('o1-mini')]);
      const response = await openai('o1-mini', { baseURL: `${server.url}/v1`, apiKey: 'sk-test' }).complete({
        messages: 'Hi',
      });
      expect(response.cost).toEqual({ inputUsd: 0.0011, outputUsd: 0.0044, totalUsd: 0.0055 });
    });

    it('of an unknown model has usage but no cost', async () => {
      const server = await servers.start([body('gpt-4o-mini-2099-01-01')]);
      const response = await openai('gpt-4o-mini-2099-01-01', {
        baseURL: `${server.url}/v1`,
        apiKey: 'sk-test',
      }).complete({ messages: 'Hi' });
      expect(response.usage).toMatchObject({ inputTokens: 1000, outputTokens: 1000 });
      expect(response).not.toHaveProperty('cost');
    });
  });
});
