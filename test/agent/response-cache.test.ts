import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, memoryResponseCache, NetworkError, type ResponseCache } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

const echo = defineTool({
  name: 'lookup',
  description: 'Looks up.',
  input: z.object({ q: z.string() }),
  execute: ({ q }) => ({ q }),
});

describe('response cache', () => {
  it('a deterministic turn is served from the cache the second time, replayed as a stream', async () => {
    const cache = memoryResponseCache();
    const model = scriptedModel([{ text: ['Hel', 'lo'] }, { text: 'a different answer' }]);
    const agent = new Agent({ model, temperature: 0, responseCache: cache });
    const first = await lastValueFrom(agent.run('hi').pipe(toArray()));
    const second = await lastValueFrom(agent.run('hi').pipe(toArray()));
    expect(model.requests).toHaveLength(1);
    expect(second.filter((event) => event.type === 'text-delta').map((event) => event.text)).toEqual([
      'Hel',
      'lo',
    ]);
    expect(second.at(-1)).toMatchObject({ type: 'agent-completed', result: { text: 'Hello' } });
    expect(first.map((event) => event.type)).toEqual(second.map((event) => event.type));
  });

  it('never for sampled turns, nor once tool results are in the conversation', async () => {
    const cache = memoryResponseCache();
    const sampled = scriptedModel([{ text: 'a' }, { text: 'b' }]);
    const hot = new Agent({ model: sampled, temperature: 0.7, responseCache: cache });
    expect((await hot.chat('hi')).text).toBe('a');
    expect((await hot.chat('hi')).text).toBe('b');

    const model = scriptedModel([
      { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] },
      { text: 'first' },
      { text: 'second' },
    ]);
    const agent = new Agent({ model, tools: [echo], temperature: 0, responseCache: memoryResponseCache() });
    expect((await agent.chat('go')).text).toBe('first');
    // Step 1 (no tool results yet) is cached, step 2 (after a tool result) is not.
    expect((await agent.chat('go')).text).toBe('second');
    expect(model.requests).toHaveLength(3);
  });

  it('different requests have different keys; entries expire after their ttl', async () => {
    let now = 0;
    const cache = memoryResponseCache({ now: () => now, maxEntries: 1 });
    const model = scriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }]);
    const agent = new Agent({ model, temperature: 0, responseCache: cache, responseCacheTtlMs: 1000 });
    expect((await agent.chat('a')).text).toBe('one');
    expect((await agent.chat('b')).text).toBe('two');
    expect((await agent.chat('b')).text).toBe('two');
    expect((await agent.chat('a')).text).toBe('three'); // evicted by 'b' (maxEntries 1)
    now = 5000;
    expect((await agent.chat('a')).text).toBe('four');
  });

  it('a failing cache is bypassed, not fatal', async () => {
    const broken: ResponseCache = {
      get: () => Promise.reject(new Error('cache down')),
      set: () => Promise.reject(new Error('cache down')),
    };
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn: (_: object, message?: string) => warnings.push(message ?? ''),
      error() {},
    };
    const agent = new Agent({
      model: scriptedModel([{ text: 'fine' }]),
      temperature: 0,
      responseCache: broken,
      logger,
    });
    expect((await agent.chat('x')).text).toBe('fine');
    expect(warnings).toEqual(['response cache read failed', 'response cache write failed']);
  });
});

describe('response cache with a restarted step', () => {
  it('passes step-restarted on and caches only the attempt that finished', async () => {
    const cache = memoryResponseCache();
    const model = scriptedModel([{ text: ['Hel'], error: new NetworkError('reset') }, { text: ['Hello'] }]);
    const agent = new Agent({ model, temperature: 0, responseCache: cache });
    const events = await lastValueFrom(agent.run('hi').pipe(toArray()));
    expect(events.map((event) => (event.type === 'text-delta' ? event.text : event.type))).toEqual([
      'step-started',
      'Hel',
      'step-restarted',
      'Hello',
      'step-completed',
      'agent-completed',
    ]);
    const replayed = await lastValueFrom(agent.run('hi').pipe(toArray()));
    expect(replayed.filter((event) => event.type === 'text-delta').map((event) => event.text)).toEqual([
      'Hello',
    ]);
    expect(model.requests).toHaveLength(2);
  });
});
