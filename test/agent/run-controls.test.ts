import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  BudgetExceededError,
  defineTool,
  MaxStepsError,
  memorySessionStore,
  StructuredOutputError,
} from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { expectNoOrphans } from './no-orphans.ts';

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather.',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 18 }),
});
const clock = defineTool({
  name: 'get_time',
  description: 'Time.',
  input: z.object({}),
  execute: () => ({ time: '12:00' }),
});
const ask = (city: string, id = `call_${city}`) => ({
  toolCalls: [{ id, name: 'get_weather', arguments: { city } }],
});
const price = { inputPerMTok: 1_000_000, outputPerMTok: 0 }; // $1 per input token

describe('per-run system prompt and tool choice', () => {
  it('the run system replaces the agent system for that run only and is never stored', async () => {
    const model = scriptedModel([{ text: 'a' }, { text: 'b' }]);
    const sessions = memorySessionStore();
    const agent = new Agent({ model, system: 'agent prompt', sessions });
    await agent.chat('hi', { sessionId: 's', system: 'Today is Tuesday.' });
    await agent.chat('again', { sessionId: 's' });
    expect(model.requests.map((r) => r.system)).toEqual(['Today is Tuesday.', 'agent prompt']);
    const stored = await sessions.get('s');
    expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(JSON.stringify(stored?.messages)).not.toContain('Tuesday');
  });

  it('toolChoice applies to the first step; later steps are auto', async () => {
    const model = scriptedModel([ask('Oslo'), { text: 'done' }]);
    const agent = new Agent({ model, tools: [weather] });
    await agent.chat('hi', { toolChoice: { name: 'get_weather' } });
    expect(model.requests.map((r) => r.toolChoice)).toEqual([{ name: 'get_weather' }, 'auto']);
  });
});

describe('structured output', () => {
  const Answer = z.object({ city: z.string(), tempC: z.number() });

  it('the final answer is parsed and validated into result.object', async () => {
    const model = scriptedModel([ask('Oslo'), { text: '{"city":"Oslo","tempC":18}' }]);
    const agent = new Agent({ model, tools: [weather] });
    const result = await agent.chat('hi', { output: Answer });
    expect(result.object).toEqual({ city: 'Oslo', tempC: 18 });
    expect(model.requests[0]?.responseFormat?.schema).toBe(Answer);
  });

  it('an answer that does not match fails with StructuredOutputError', async () => {
    const model = scriptedModel([{ text: '{"city":"Oslo"}' }]);
    const agent = new Agent({ model });
    await expect(agent.chat('hi', { output: Answer })).rejects.toSatisfy((e) => StructuredOutputError.is(e));
  });

  it('a JSON Schema output gives the parsed JSON', async () => {
    const model = scriptedModel([{ text: '{"ok":true}' }]);
    const agent = new Agent({ model });
    const result = await agent.chat('hi', {
      output: { type: 'object', properties: { ok: { type: 'boolean' } } },
    });
    expect(result.object).toEqual({ ok: true });
  });
});

describe('stopWhen and prepareStep', () => {
  it('stopWhen ends the run gracefully after a step, its tools run and everything saved', async () => {
    const model = scriptedModel([ask('Oslo'), ask('Rome'), { text: 'never' }]);
    const sessions = memorySessionStore();
    const agent = new Agent({ model, tools: [weather], sessions });
    const seen: number[] = [];
    const result = await agent.chat('hi', {
      sessionId: 's',
      stopWhen: (s) => {
        seen.push(s.step);
        return s.toolCalls >= 1;
      },
    });
    expect(seen).toEqual([1]);
    expect(model.requests).toHaveLength(1);
    expect(result.finishReason).toBe('tool-calls');
    const stored = await sessions.get('s');
    expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expectNoOrphans(stored?.messages ?? []);
  });

  it('prepareStep picks the model, the active tools, the system prompt and settings per step', async () => {
    const first = scriptedModel([ask('Oslo')]);
    const second = scriptedModel([{ text: 'done' }], { modelId: 'second' });
    const agent = new Agent({ model: first, tools: [weather, clock], temperature: 1 });
    const result = await agent.chat('hi', {
      prepareStep: (s) =>
        s.step === 1
          ? { activeTools: ['get_weather'], system: 'step one' }
          : { model: second, activeTools: [], temperature: 0, maxOutputTokens: 50 },
    });
    expect(result.text).toBe('done');
    expect(first.requests[0]?.tools?.map((t) => t.name)).toEqual(['get_weather']);
    expect(first.requests[0]?.system).toBe('step one');
    // No tool left after a tool step: the tools go with toolChoice 'none' (review r18a-6).
    expect(second.requests[0]?.toolChoice).toBe('none');
    expect(second.requests[0]).toMatchObject({ temperature: 0, maxOutputTokens: 50 });
  });
});

describe('limits: maxSteps, maxCostUsd and onLimit', () => {
  it("a per-run maxSteps with onLimit 'stop' ends with finishReason max-steps, the last step's tools run", async () => {
    const model = scriptedModel([ask('Oslo'), ask('Rome'), { text: 'never' }]);
    const sessions = memorySessionStore();
    const agent = new Agent({ model, tools: [weather], sessions });
    const result = await agent.chat('hi', { sessionId: 's', maxSteps: 2, onLimit: 'stop' });
    expect(result.finishReason).toBe('max-steps');
    expect(result.steps).toHaveLength(2);
    const stored = await sessions.get('s');
    expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expectNoOrphans(stored?.messages ?? []);
  });

  it("maxSteps with onLimit 'error' (the default) fails, and the finished steps are still saved", async () => {
    const model = scriptedModel([ask('Oslo'), ask('Rome')]);
    const sessions = memorySessionStore();
    const agent = new Agent({ model, tools: [weather], sessions });
    await expect(agent.chat('hi', { sessionId: 's', maxSteps: 2 })).rejects.toSatisfy((e) =>
      MaxStepsError.is(e),
    );
    await expect(agent.chat('hi', { maxSteps: 0 })).rejects.toThrow(RangeError);
    const stored = await sessions.get('s');
    // Step 2 asked for a tool past the budget: nothing of it ran, and nothing half-done is kept.
    expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('maxCostUsd ends the run between steps: an error, or with stop finishReason budget', async () => {
    const turn = { ...ask('Oslo'), usage: { inputTokens: 1 } };
    for (const onLimit of ['error', 'stop'] as const) {
      const model = scriptedModel([turn, turn, { text: 'never' }], { price });
      const sessions = memorySessionStore();
      const agent = new Agent({ model, tools: [weather], sessions });
      const run = agent.chat('hi', { sessionId: 's', maxCostUsd: 1.5, onLimit });
      if (onLimit === 'error') {
        await expect(run).rejects.toSatisfy((e) => BudgetExceededError.is(e) && e.budget === 'cost');
      } else {
        const result = await run;
        expect(result.finishReason).toBe('budget');
        expect(result.cost?.totalUsd).toBe(2);
      }
      expect(model.requests).toHaveLength(2);
      const stored = await sessions.get('s');
      expect(stored?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    }
  });
});

describe('per-run session metadata', () => {
  it('is merged into the session with the run', async () => {
    const sessions = memorySessionStore();
    const agent = new Agent({ model: scriptedModel([{ text: 'a' }, { text: 'b' }]), sessions });
    await agent.chat('hi', { sessionId: 's', metadata: { title: 'Greeting', channel: 'web' } });
    await agent.chat('again', { sessionId: 's', metadata: { channel: 'cli' } });
    expect((await sessions.get('s'))?.metadata).toEqual({ title: 'Greeting', channel: 'cli' });
  });
});
