import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  assistant,
  type ChatModel,
  computeCost,
  type Message,
  message,
  priceOf,
  type StreamEvent,
  system,
  textOf,
  toolMessage,
  user,
} from '../src/index.ts';

describe('messages', () => {
  it('are frozen, deeply where they hold arrays', () => {
    const parts = [{ type: 'text', text: 'hi' } as const];
    const m = user(parts);
    expect(Object.isFrozen(m)).toBe(true);
    expect(Object.isFrozen(m.content)).toBe(true);
    expect(m.content).not.toBe(parts); // a copy: the caller's array stays theirs
    const a = assistant('', [{ id: 'c1', name: 't', arguments: {} }], { k: 1 });
    expect(Object.isFrozen(a.toolCalls)).toBe(true);
    expect(Object.isFrozen(a.metadata)).toBe(true);
    expect(() => {
      (a as { role: string }).role = 'user';
    }).toThrow(TypeError);
  });

  it('helpers build the documented shapes', () => {
    expect(system('s')).toEqual({ role: 'system', content: 's' });
    expect(toolMessage('c1', '{}')).toEqual({ role: 'tool', toolCallId: 'c1', content: '{}' });
    expect(assistant('hi')).toEqual({ role: 'assistant', content: 'hi' });
    expect(message({ role: 'user', content: 'x', metadata: { a: 1 } })).toEqual({
      role: 'user',
      content: 'x',
      metadata: { a: 1 },
    });
    expect(
      textOf([
        { type: 'text', text: 'a' },
        { type: 'image', url: 'u' },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('ab');
    expect(textOf('plain')).toBe('plain');
  });

  it('public types have the documented shapes', () => {
    expectTypeOf<Message['role']>().toEqualTypeOf<'system' | 'user' | 'assistant' | 'tool'>();
    expectTypeOf<StreamEvent['type']>().toEqualTypeOf<
      'text-delta' | 'reasoning-delta' | 'tool-call-delta' | 'tool-calls-ready' | 'stream-completed'
    >();
    expectTypeOf<ChatModel['capabilities']['streaming']>().toEqualTypeOf<true>();
  });
});

describe('pricing', () => {
  it('matches listed snapshots and aliases exactly, ignoring a provider prefix', () => {
    expect(priceOf('gpt-4o-mini-2024-07-18')).toMatchObject({ inputPerMTok: 0.15 });
    expect(priceOf('gpt-4o-2024-08-06')).toMatchObject({ inputPerMTok: 2.5 });
    expect(priceOf('openai/gpt-4.1-nano')).toMatchObject({ inputPerMTok: 0.1 });
    expect(priceOf('claude-sonnet-4-5-20250929')).toMatchObject({ outputPerMTok: 15 });
    expect(priceOf('llama3.2')).toBeUndefined();
  });

  it('charges cached and cache-write tokens at their own rates', () => {
    const price = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5, cacheWritePerMTok: 2.5 };
    expect(computeCost({ inputTokens: 1_000_000, outputTokens: 500_000, totalTokens: 0 }, price)).toEqual({
      inputUsd: 2,
      outputUsd: 4,
      totalUsd: 6,
    });
    const cached = computeCost(
      {
        inputTokens: 1_000_000,
        cachedInputTokens: 400_000,
        cacheWriteTokens: 100_000,
        outputTokens: 0,
        totalTokens: 0,
      },
      price,
    );
    expect(cached.inputUsd).toBeCloseTo(0.5 * 2 + 0.4 * 0.5 + 0.1 * 2.5, 9);
    expect(
      computeCost(
        { inputTokens: 10, cachedInputTokens: 10, outputTokens: 0, totalTokens: 10 },
        { inputPerMTok: 1, outputPerMTok: 1 },
      ).inputUsd,
    ).toBeCloseTo(0.00001, 12);
  });
});
