import { firstValueFrom, filter, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  BudgetExceededError,
  defineTool,
  memorySessionStore,
  NetworkError,
  SessionConflictError,
  SessionStoreError,
  ToolRegistry,
  user,
} from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { expectNoOrphans } from './no-orphans.ts';

const weather = (city: string, id = 'call_1') => ({
  toolCalls: [{ id, name: 'get_weather', arguments: { city } }],
});

function blockingTool() {
  const signals: AbortSignal[] = [];
  const tool = defineTool({
    name: 'get_weather',
    description: 'Waits until cancelled.',
    input: z.object({ city: z.string() }),
    execute: (_args, { signal }) => {
      signals.push(signal);
      return new Promise<never>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason)),
      );
    },
  });
  return { tool, signals };
}

const okTool = defineTool({
  name: 'get_weather',
  description: 'Weather.',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 18 }),
});

describe('cancellation', () => {
  it('unsubscribing aborts every running tool and appends nothing to the session', async () => {
    const { tool, signals } = blockingTool();
    const sessions = memorySessionStore();
    const model = scriptedModel([
      { toolCalls: [weather('Oslo').toolCalls[0]!, weather('Rome', 'call_2').toolCalls[0]!] },
    ]);
    const agent = new Agent({ model, tools: [tool], sessions });
    const subscription = agent.run('Weather?', { sessionId: 's1' }).subscribe();
    await expect.poll(() => signals.length).toBe(2);
    subscription.unsubscribe();
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
    expect(await sessions.get('s1')).toBeNull();
  });

  it('aborting the signal rejects chat with its reason and cancels the tools', async () => {
    const { tool, signals } = blockingTool();
    const controller = new AbortController();
    const agent = new Agent({ model: scriptedModel([weather('Oslo')]), tools: [tool] });
    const chat = agent.chat('Weather?', { signal: controller.signal });
    await expect.poll(() => signals.length).toBe(1);
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    await expect(chat).rejects.toBe(reason);
    expect(signals[0]?.aborted).toBe(true);
  });
});

describe('an already aborted signal', () => {
  it('rejects at once with its reason; nothing is sent', async () => {
    const model = scriptedModel([{ text: 'unused' }]);
    const reason = new Error('too late');
    const agent = new Agent({ model });
    await expect(agent.chat('x', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(model.requests).toHaveLength(0);
  });
});

describe('outcomes: none orphaned', () => {
  it('a tool that throws and one that times out still answer their calls', async () => {
    const failing = defineTool({
      name: 'explode',
      description: 'Throws.',
      input: z.object({}),
      execute: () => {
        throw new Error('kaboom');
      },
    });
    const slow = defineTool({
      name: 'slow',
      description: 'Too slow.',
      input: z.object({}),
      timeoutMs: 20,
      execute: (_args, { signal }) => new Promise((resolve) => signal.addEventListener('abort', resolve)),
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'a', name: 'explode' },
          { id: 'b', name: 'slow' },
          { id: 'c', name: 'missing_tool' },
        ],
      },
      { text: 'Sorry.' },
    ]);
    const agent = new Agent({ model, tools: new ToolRegistry().register(failing).register(slow) });
    const result = await agent.chat('Go');
    const tools = result.messages.filter((message) => message.role === 'tool');
    expect(tools.map((message) => [message.toolCallId, message.isError])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
    ]);
    expectNoOrphans(result.messages);
    expectNoOrphans(model.requests[1]?.messages as never);
  });
});

describe('budgets', () => {
  it('consecutive invalid calls past maxInvalidToolCalls end the run with the messages so far', async () => {
    const model = scriptedModel(
      [weather(''), weather(''), weather('')].map((turn, index) => ({
        toolCalls: [{ ...turn.toolCalls[0]!, id: `call_${index}`, arguments: { city: index } }],
      })),
    );
    const agent = new Agent({ model, tools: [okTool], maxInvalidToolCalls: 2 });
    const error = await agent.chat('Go').catch((caught: unknown) => caught);
    expect(BudgetExceededError.is(error)).toBe(true);
    const budget = error as BudgetExceededError;
    expect(budget).toMatchObject({ budget: 'invalid-tool-calls', limit: 2, code: 'budget_exceeded' });
    expect(budget.messages.filter((message) => message.role === 'tool')).toHaveLength(3);
    expectNoOrphans(budget.messages);
  });

  it('a valid call resets the invalid streak', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: '1', name: 'get_weather', arguments: { city: 1 } }] },
      { toolCalls: [{ id: '2', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { toolCalls: [{ id: '3', name: 'get_weather', arguments: { city: 3 } }] },
      { text: 'done' },
    ]);
    const agent = new Agent({ model, tools: [okTool], maxInvalidToolCalls: 1 });
    expect((await agent.chat('Go')).text).toBe('done');
  });

  it('a repeated call over maxRepeatedToolCalls is not executed', async () => {
    let runs = 0;
    const counted = defineTool({
      name: 'get_weather',
      description: 'Weather.',
      input: z.object({ city: z.string() }),
      execute: () => ++runs,
    });
    const model = scriptedModel([weather('Oslo', 'a'), weather('Oslo', 'b'), weather('Oslo', 'c')]);
    const agent = new Agent({ model, tools: [counted], maxRepeatedToolCalls: 2 });
    const error = (await agent.chat('Go').catch((caught: unknown) => caught)) as BudgetExceededError;
    expect(error).toMatchObject({ budget: 'repeated-tool-calls', limit: 2 });
    expect(runs).toBe(2);
    expectNoOrphans(error.messages);
  });
});

describe('sessions', () => {
  it('an error appends nothing; with persistPartialRuns, the whole finished steps', async () => {
    const turns = [weather('Oslo'), { text: ['It is'], error: new NetworkError('gone') }];
    for (const persistPartialRuns of [false, true]) {
      const sessions = memorySessionStore();
      const agent = new Agent({
        model: scriptedModel(turns),
        tools: [okTool],
        sessions,
        persistPartialRuns,
        stepRetries: 0,
      });
      await expect(agent.chat('Weather?', { sessionId: 's' })).rejects.toBeInstanceOf(NetworkError);
      const session = await sessions.get('s');
      if (!persistPartialRuns) expect(session).toBeNull();
      else {
        expect(session?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
        expectNoOrphans(session?.messages ?? []);
      }
    }
  });

  it('two runs on one session in one process are serialised', async () => {
    const sessions = memorySessionStore();
    const model = scriptedModel([{ text: 'first' }, { text: 'second' }], { delayMs: 10 });
    const agent = new Agent({ model, sessions });
    const [a, b] = await Promise.all([
      agent.chat('one', { sessionId: 's' }),
      agent.chat('two', { sessionId: 's' }),
    ]);
    expect([a.text, b.text]).toEqual(['first', 'second']);
    expect(model.requests[1]?.messages).toEqual([
      user('one'),
      expect.objectContaining({ content: 'first' }),
      user('two'),
    ]);
    expect((await sessions.get('s'))?.version).toBe(2);
  });

  it('another writer during the run: SessionConflictError, or with rebase, appended after it', async () => {
    for (const onConflict of ['error', 'rebase'] as const) {
      const sessions = memorySessionStore();
      // The turn runs while "another process" appends to the same session.
      const model = scriptedModel([
        () => {
          void sessions.append('s', [user('from elsewhere')]);
          return { text: 'reply' };
        },
      ]);
      const agent = new Agent({ model, sessions, onConflict });
      const run = agent.chat('mine', { sessionId: 's' });
      if (onConflict === 'error') {
        await expect(run).rejects.toSatisfy((error) => SessionConflictError.is(error));
        expect((await sessions.get('s'))?.messages.map((m) => m.content)).toEqual(['from elsewhere']);
      } else {
        await run;
        const session = await sessions.get('s');
        expect(session?.messages.map((m) => m.content)).toEqual(['from elsewhere', 'mine', 'reply']);
        expect(session?.version).toBe(2);
      }
    }
  });

  it('rebasing stops at an error that is not a conflict, and says so', async () => {
    const inner = memorySessionStore();
    let appends = 0;
    const failing = new SessionStoreError('memory', 'append', { message: 'the store is down' });
    const store = {
      ...inner,
      get: (id: string) => inner.get(id),
      append: (...args: Parameters<typeof inner.append>) => {
        appends += 1;
        // the other writer's append, then the run's stale one (a conflict), then the store fails
        return appends <= 2 ? inner.append(...args) : Promise.reject(failing);
      },
    };
    const model = scriptedModel([
      () => {
        void store.append('s', [user('elsewhere')]);
        return { text: 'reply' };
      },
    ]);
    const agent = new Agent({ model, sessions: store, onConflict: 'rebase' });
    await expect(agent.chat('mine', { sessionId: 's' })).rejects.toBe(failing);
    expect((await inner.get('s'))?.messages.map((m) => m.content)).toEqual(['elsewhere']);
    expect(appends).toBe(3);
  });

  it('a sessionId without a store is refused: nothing would be kept', async () => {
    const model = scriptedModel([{ text: 'unused' }]);
    const agent = new Agent({ model });
    await expect(agent.chat('x', { sessionId: 's' })).rejects.toThrow(/sessions/);
    expect(model.requests).toHaveLength(0);
  });
});

describe('events', () => {
  it('step-started comes before the deltas of every step', async () => {
    const agent = new Agent({
      model: scriptedModel([weather('Oslo'), { text: ['a', 'b'] }]),
      tools: [okTool],
    });
    const types = await lastValueFrom(agent.run('x').pipe(toArray()));
    expect(types.map((event) => event.type)).toEqual([
      'step-started',
      'tool-calls-ready',
      'step-completed',
      'tool-result',
      'step-started',
      'text-delta',
      'text-delta',
      'step-completed',
      'agent-completed',
    ]);
    const first = await firstValueFrom(agent.run('x').pipe(filter((event) => event.type === 'step-started')));
    expect(first).toEqual({ type: 'step-started', step: 1 });
  });
});

describe('calls that share an id (a broken server)', () => {
  it('each call still gets its own outcome, in call order', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'dup', name: 'get_weather', arguments: { city: 'Oslo' } },
          { id: 'dup', name: 'get_weather', arguments: { city: 'Rome' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const result = await new Agent({ model, tools: [okTool] }).chat('Weather?');
    const contents = result.messages.filter((message) => message.role === 'tool').map((m) => m.content);
    expect(contents).toHaveLength(2);
    expect(contents[0]).toContain('Oslo');
    expect(contents[1]).toContain('Rome');
  });
});
