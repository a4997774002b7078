import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  ApiError,
  type ChatRequest,
  ContextOverflowError,
  defineTool,
  type Message,
  memorySessionStore,
  textOf,
} from '../../src/index.ts';
import { scriptedModel, type ScriptedTurn } from '../../src/testing/index.ts';

const WINDOW = 8192;
const OUTPUT = 512;

/** The "server's" tokenizer: 1 token per 4 characters of everything sent, plus framing. */
function serverTokens(request: ChatRequest): number {
  const messages = typeof request.messages === 'string' ? [] : request.messages;
  const text = messages.map((m) => textOf(m.content) + JSON.stringify(m.toolCalls ?? [])).join('');
  return (
    Math.ceil(
      (text.length + (request.system?.length ?? 0) + JSON.stringify(request.tools ?? []).length) / 4,
    ) +
    3 * messages.length
  );
}

/** Tool calls without their result, or results without their call, in what a request sends. */
function orphans(messages: readonly Message[]): string[] {
  const calls = new Set(messages.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id)));
  const results = new Set(messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId));
  return [
    ...[...calls].filter((id) => !results.has(id)),
    ...[...results].filter((id) => !calls.has(id as string)),
  ] as string[];
}

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a fact up.',
  input: z.object({ q: z.string() }),
  execute: ({ q }) => ({ q, fact: `${q} is documented in chapter ${q.length}. `.repeat(4) }),
});

/** An 8k-window model that answers like a provider: a 400 for a request over its window. */
function eightK() {
  const problems: string[] = [];
  let peak = 0;
  let calls = 0;
  const turn = (request: ChatRequest): ScriptedTurn => {
    const messages = typeof request.messages === 'string' ? [] : request.messages;
    const tokens = serverTokens(request);
    peak = Math.max(peak, tokens);
    if (tokens + (request.maxOutputTokens ?? 0) > WINDOW) {
      problems.push(`request of ${tokens} tokens`);
      return { error: new ApiError('context_length_exceeded', { status: 400, provider: 'scripted' }) };
    }
    const orphaned = orphans(messages);
    if (orphaned.length > 0) problems.push(`orphans ${orphaned.join(',')}`);
    const last = messages.at(-1);
    if (last?.role === 'user' && textOf(last.content).includes('look up'))
      return { toolCalls: [{ id: `call_${++calls}`, name: 'lookup', arguments: { q: `topic ${calls}` } }] };
    return { text: `Answer ${++calls}: ${'a considered reply with some detail. '.repeat(6)}` };
  };
  const model = scriptedModel([turn], { loop: true, contextWindow: WINDOW, countTokens: serverTokens });
  return { model, problems, peak: () => peak };
}

describe('context that never overflows', () => {
  it('1,000 turns on an 8k window with trim: every request fits, no provider error, no orphan, every message kept', async () => {
    const { model, problems, peak } = eightK();
    const sessions = memorySessionStore();
    const agent = new Agent({
      model,
      tools: [lookup],
      sessions,
      maxOutputTokens: OUTPUT,
      system: 'You are a patient assistant.',
      context: { strategy: 'trim' },
    });
    let expected = 0;
    for (let i = 0; i < 1000; i++) {
      const ask = i % 3 === 0 ? `Please look up item ${i}. ` : `Question ${i}: tell me more. `;
      const result = await agent.chat(ask.repeat(8), { sessionId: 'long' });
      expected += result.messages.length;
    }
    expect(problems).toEqual([]);
    expect(peak()).toBeLessThanOrEqual(WINDOW - OUTPUT);
    const session = await sessions.get('long');
    expect(session?.messages).toHaveLength(expected);
    expect(expected).toBeGreaterThan(2000);
    expect(orphans(session?.messages ?? [])).toEqual([]);
    // The system prompt went with every request.
    expect(model.requests.every((r) => r.system === 'You are a patient assistant.')).toBe(true);
  }, 120_000);

  it('summarize: one summary stored per compaction, marked with what it covers, reused by later runs', async () => {
    const { model, problems } = eightK();
    const summarizer = scriptedModel(
      [(r) => ({ text: `summary of ${textOf((r.messages as Message[])[0]!.content).length} chars` })],
      {
        loop: true,
      },
    );
    const sessions = memorySessionStore();
    const agent = new Agent({
      model,
      tools: [lookup],
      sessions,
      maxOutputTokens: OUTPUT,
      context: { strategy: 'summarize', summarizer },
    });
    for (let i = 0; i < 200; i++)
      await agent.chat(`Question ${i}: tell me more. `.repeat(8), { sessionId: 's' });
    expect(problems).toEqual([]);
    const session = await sessions.get('s');
    const summaries = (session?.messages ?? []).filter((m) => m.metadata?.['rxagentSummary'] !== undefined);
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries.length).toBe(summarizer.requests.length);
    const covers = summaries.map((m) => (m.metadata?.['rxagentSummary'] as { covers: number }).covers);
    expect(covers).toEqual([...covers].sort((a, b) => a - b));
    expect(new Set(covers).size).toBe(covers.length);
    // A run after a summary starts its request with the newest summary.
    expect(
      textOf(
        model.requests.at(-1)?.messages[0] ? (model.requests.at(-1)?.messages as Message[])[0]!.content : '',
      ),
    ).toMatch(/^Summary/);
    expect(session?.messages.filter((m) => m.role === 'user')).toHaveLength(200);
  }, 120_000);

  it('a turn that alone cannot fit is a ContextOverflowError before anything is sent', async () => {
    const { model } = eightK();
    const agent = new Agent({ model, maxOutputTokens: OUTPUT, context: { strategy: 'trim' } });
    await expect(agent.chat('x'.repeat(40_000))).rejects.toSatisfy((e) => ContextOverflowError.is(e));
    expect(model.requests).toHaveLength(0);
  });
});

describe('a custom context strategy', () => {
  it('gets every message and the budget; what it returns is sent, and must fit', async () => {
    const { model, problems } = eightK();
    const seen: number[] = [];
    const agent = new Agent({
      model,
      sessions: memorySessionStore(),
      maxOutputTokens: OUTPUT,
      context: {
        strategy: (messages, budget) => {
          seen.push(messages.length, budget.limit);
          return of(messages.slice(-1));
        },
      },
    });
    for (let i = 0; i < 60; i++)
      await agent.chat(`Question ${i}: ${'more please. '.repeat(30)}`, { sessionId: 'c' });
    expect(problems).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[1]).toBe(WINDOW - OUTPUT);
    expect(model.requests.at(-1)?.messages).toHaveLength(1);
  });
});

describe('counting cost', () => {
  it('a request far inside the window is not counted: no round trip on most steps', async () => {
    let counted = 0;
    const model = scriptedModel([{ text: 'short' }], {
      loop: true,
      contextWindow: 200_000,
      countTokens: (request) => {
        counted += 1;
        return serverTokens(request);
      },
    });
    const agent = new Agent({ model, context: { strategy: 'trim' } });
    await agent.chat('hello');
    expect(counted).toBe(0);
    await agent.chat('x'.repeat(200_000));
    expect(counted).toBe(1);
  });
});

describe('summaries count toward the run', () => {
  it("the summarizer's usage is in the run's usage", async () => {
    const model = scriptedModel([{ text: 'reply '.repeat(40), usage: { inputTokens: 1 } }], {
      loop: true,
      contextWindow: 2000,
    });
    const summarizer = scriptedModel([{ text: 'SUM', usage: { inputTokens: 1000, outputTokens: 10 } }], {
      loop: true,
    });
    const agent = new Agent({
      model,
      sessions: memorySessionStore(),
      maxOutputTokens: 100,
      context: { strategy: 'summarize', summarizer },
    });
    const inputs: number[] = [];
    for (let i = 0; i < 20; i++)
      inputs.push((await agent.chat('q '.repeat(100), { sessionId: 's' })).usage.inputTokens);
    expect(summarizer.requests.length).toBeGreaterThan(0);
    expect(inputs.filter((n) => n === 1001)).toHaveLength(summarizer.requests.length);
  });
});
