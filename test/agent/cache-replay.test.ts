import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, memoryResponseCache, user } from '../../src/index.ts';
import { responseCacheKey } from '../../src/agent/response-cache-key.ts';
import { stableJson } from '../../src/agent/stable-json.ts';
import { scriptedModel } from '../../src/testing/index.ts';

describe('M2: a cached turn gets fresh tool-call ids', () => {
  it('two users replaying one cached turn never share an idempotency key', async () => {
    const keys: string[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pays an invoice.',
      input: z.object({ invoice: z.string() }),
      execute: (_args, ctx) => {
        keys.push(ctx.toolCallId);
        return 'paid';
      },
    });
    const model = scriptedModel(
      [
        { toolCalls: [{ id: 'call_196a3d2e', name: 'pay', arguments: { invoice: 'INV-1' } }] },
        { text: 'Paid.' },
      ],
      { loop: true },
    );
    const agent = new Agent({ model, tools: [pay], temperature: 0, responseCache: memoryResponseCache() });
    const a = await agent.chat('pay INV-1', { actor: { id: 'userA' } });
    const b = await agent.chat('pay INV-1', { actor: { id: 'userB' } });
    expect(new Set(keys).size).toBe(2);
    const callOf = (messages: typeof a.messages) => messages.find((m) => m.toolCalls)?.toolCalls?.[0]?.id;
    const resultOf = (messages: typeof a.messages) => messages.find((m) => m.role === 'tool')?.toolCallId;
    expect(callOf(b.messages)).not.toBe(callOf(a.messages));
    expect(resultOf(b.messages)).toBe(callOf(b.messages));
    expect(b.steps[0]?.toolCalls[0]?.id).toBe(callOf(b.messages));
  });
});

describe('m3: a cache hit reports no new usage; cut turns are not cached', () => {
  it('a hit has no usage and no cost', async () => {
    const price = { inputPerMTok: 1, outputPerMTok: 1 };
    const model = scriptedModel([{ text: 'hi', usage: { inputTokens: 10, outputTokens: 5 } }], { price });
    const agent = new Agent({ model, temperature: 0, responseCache: memoryResponseCache() });
    const first = await agent.chat('x');
    const second = await agent.chat('x');
    expect(first.usage.totalTokens).toBe(15);
    expect(second.usage.totalTokens).toBe(0);
    expect(second.cost?.totalUsd ?? 0).toBe(0);
    expect(model.requests).toHaveLength(1);
  });

  it('a length-truncated turn is asked again, never served from the cache', async () => {
    const cut = { text: 'The answer is', finishReason: 'length' as const };
    const model = scriptedModel([cut, cut, cut]);
    const agent = new Agent({ model, temperature: 0, responseCache: memoryResponseCache() });
    for (let i = 0; i < 3; i++) await agent.chat('x');
    expect(model.requests).toHaveLength(3);
  });
});

describe('m4: the cache key of byte images', () => {
  it('hashes the bytes: a 2 MB image gives a short key text, equal bytes equal keys', async () => {
    const model = scriptedModel([]);
    const image = (fill: number) => new Uint8Array(2 * 1024 * 1024).fill(fill);
    const request = (bytes: Uint8Array) => ({
      messages: [user([{ type: 'image' as const, data: bytes, mediaType: 'image/png' }])],
      temperature: 0,
    });
    // Walked as an object, 2 MB of bytes would be ~20 MB of text (and seconds of CPU) per step.
    const bytes = image(1);
    expect(stableJson(request(bytes), new Map([[bytes, 'sha-256 of the bytes']])).length).toBeLessThan(500);
    const a = await responseCacheKey(model, request(image(1)));
    expect(a.length).toBeLessThan(500);
    expect(await responseCacheKey(model, request(image(1)))).toBe(a);
    expect(await responseCacheKey(model, request(image(2)))).not.toBe(a);
  });
});
