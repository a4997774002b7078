import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  ApiError,
  BudgetExceededError,
  defineTool,
  fileSessionStore,
  memorySessionStore,
  SessionBusyError,
  type SessionStore,
  user,
} from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { expectNoOrphans } from './no-orphans.ts';

let rolls = 0;
const rollDie = defineTool({
  name: 'roll_die',
  description: 'Rolls a die.',
  input: z.object({}),
  execute: () => ({ value: (rolls++ % 6) + 1 }),
});
const sent: string[] = [];
const sendEmail = defineTool({
  name: 'send_email',
  description: 'Sends an email.',
  input: z.object({ to: z.string() }),
  execute: ({ to }) => {
    sent.push(to);
    return 'sent';
  },
});
const dice = (n: number) => ({
  toolCalls: Array.from({ length: n }, (_, i) => ({ id: `d${i}`, name: 'roll_die', arguments: {} })),
});

/** A handle of its own on `store`'s data, as a second app server would have (no shared identity). */
const handle = (store: SessionStore): SessionStore => ({
  get: (id) => store.get(id),
  append: (id, messages, options) => store.append(id, messages, options),
  delete: (id) => store.delete(id),
  prune: (ms) => store.prune(ms),
});

describe('M1: the repeated-call budget counts steps, not the parallel calls of one step', () => {
  it('"roll four dice" in one step runs with the default limits, and the run is stored', async () => {
    const sessions = memorySessionStore();
    const agent = new Agent({
      model: scriptedModel([dice(4), { text: 'You rolled four.' }]),
      tools: [rollDie],
      sessions,
    });
    const result = await agent.chat('roll four dice', { sessionId: 's' });
    expect(result.text).toBe('You rolled four.');
    expect((await sessions.get('s'))?.messages).toHaveLength(7);
  });

  it('the same calls in more steps in a row than the budget still end the run', async () => {
    const model = scriptedModel([dice(2), dice(2), dice(2), { text: 'never' }]);
    const agent = new Agent({ model, tools: [rollDie], maxRepeatedToolCalls: 2 });
    await expect(agent.chat('roll')).rejects.toSatisfy(
      (e) => BudgetExceededError.is(e) && e.budget === 'repeated-tool-calls',
    );
    expect(model.requests).toHaveLength(3);
  });
});

describe('M3: by default a conflict appends after the winner; a run whose tools ran is never dropped', () => {
  it('two servers on one session: both runs, with their emails, are in the history', async () => {
    sent.length = 0;
    const shared = memorySessionStore();
    const turn = (to: string) => [
      { toolCalls: [{ id: `c_${to}`, name: 'send_email', arguments: { to } }] },
      { text: `I emailed ${to}.` },
    ];
    const a = new Agent({
      model: scriptedModel(turn('a@example.test')),
      tools: [sendEmail],
      sessions: handle(shared),
    });
    const b = new Agent({
      model: scriptedModel(turn('b@example.test')),
      tools: [sendEmail],
      sessions: handle(shared),
    });
    const results = await Promise.allSettled([
      a.chat('email a', { sessionId: 's' }),
      b.chat('email b', { sessionId: 's' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const history = (await shared.get('s'))?.messages ?? [];
    expect(history.filter((m) => m.role === 'tool')).toHaveLength(2);
    expect(sent.sort()).toEqual(['a@example.test', 'b@example.test']);
    expectNoOrphans(history);
  });
});

describe('m2: rebase never loses a run under contention', () => {
  it('150 writers on separate handles with a slow link: every run lands, none twice', async () => {
    const shared = memorySessionStore();
    const slow = (): SessionStore => ({
      ...handle(shared),
      append: async (id, messages, options) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        return shared.append(id, messages, options);
      },
    });
    const runs = Array.from({ length: 150 }, (_, i) =>
      new Agent({
        model: scriptedModel([{ text: `r${i}` }]),
        sessions: slow(),
        onConflict: 'rebase',
      }).chat(`q${i}`, { sessionId: 'hot' }),
    );
    const results = await Promise.allSettled(runs);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(0);
    const texts = (await shared.get('hot'))?.messages.map((m) => m.content) ?? [];
    expect(texts).toHaveLength(300);
    expect(new Set(texts).size).toBe(300);
  });
});

describe('m8: a failing partial save keeps the run its own error', () => {
  it('the model failure is what chat rejects with', async () => {
    const inner = memorySessionStore();
    const store = { ...handle(inner), append: () => Promise.reject(new Error('disk full')) };
    const failure = new ApiError('model overloaded', { status: 400, provider: 'scripted' });
    const model = scriptedModel([dice(1), { error: failure }]);
    const agent = new Agent({
      model,
      tools: [rollDie],
      sessions: store,
      stepRetries: 0,
      persistPartialRuns: true,
    });
    await expect(agent.chat('roll', { sessionId: 's' })).rejects.toBe(failure);
  });
});

describe('m9: an abort while the final append is in flight', () => {
  it('resolves with the result (the run was saved), so a retry is not needed and nothing doubles', async () => {
    const inner = memorySessionStore();
    const controller = new AbortController();
    const store: SessionStore = {
      ...handle(inner),
      append: async (id, messages, options) => {
        controller.abort(new Error('user pressed stop'));
        await new Promise((resolve) => setTimeout(resolve, 20));
        return inner.append(id, messages, options);
      },
    };
    const agent = new Agent({ model: scriptedModel([{ text: 'Hi user A' }]), sessions: store });
    const result = await agent.chat('hello', { sessionId: 's', signal: controller.signal });
    expect(result.text).toBe('Hi user A');
    expect((await inner.get('s'))?.messages.map((m) => m.content)).toEqual(['hello', 'Hi user A']);
  });
});

describe('m11: runs on one session in one process wait for each other across store objects', () => {
  it('two file store objects on one directory: no conflict even with onConflict error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-m11-'));
    try {
      const slow = (text: string) => scriptedModel([{ text }], { delayMs: 10 });
      const a = new Agent({ model: slow('A'), sessions: fileSessionStore({ dir }), onConflict: 'error' });
      const b = new Agent({ model: slow('B'), sessions: fileSessionStore({ dir }), onConflict: 'error' });
      await Promise.all([a.chat('1', { sessionId: 's' }), b.chat('2', { sessionId: 's' })]);
      const session = await fileSessionStore({ dir }).get('s');
      expect(session?.messages.map((m) => m.content).sort()).toEqual(['1', '2', 'A', 'B']);
      expect(session?.version).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('M4 and m10: approvals', () => {
  const needsOk = defineTool({
    name: 'pay',
    description: 'Pays.',
    input: z.object({}),
    needsApproval: true,
    execute: () => 'paid',
  });
  const payTurn = { toolCalls: [{ id: 'p1', name: 'pay', arguments: {} }] };

  it('the approval timeout has a finite default', async () => {
    const { agentLimits } = await import('../../src/agent/agent-limits.ts');
    expect(Number.isFinite(agentLimits({ model: scriptedModel([]) }).approvalTimeoutMs)).toBe(true);
  });

  it('a timeout tells the model no one answered, a refusal that a person declined', async () => {
    const contents: unknown[] = [];
    for (const approve of [() => new Promise<boolean>(() => undefined), () => false]) {
      const model = scriptedModel([payTurn, { text: 'ok' }]);
      const agent = new Agent({ model, tools: [needsOk], approve, approvalTimeoutMs: 30 });
      const result = await agent.chat('pay');
      contents.push(result.messages.find((m) => m.role === 'tool')?.content);
    }
    expect(String(contents[0])).toMatch(/no one answered/);
    expect(String(contents[0])).not.toMatch(/declined/);
    expect(String(contents[1])).toMatch(/declined/);
  });

  it('a later run on the session proceeds once the unanswered approval times out', async () => {
    const sessions = memorySessionStore();
    const model = scriptedModel([payTurn, { text: 'first' }, { text: 'second' }]);
    const agent = new Agent({
      model,
      tools: [needsOk],
      sessions,
      approve: () => new Promise<boolean>(() => undefined),
      approvalTimeoutMs: 50,
    });
    const [first, second] = await Promise.all([
      agent.chat('pay', { sessionId: 's' }),
      agent.chat('hello', { sessionId: 's' }),
    ]);
    expect([first.text, second.text]).toEqual(['first', 'second']);
    expect((await sessions.get('s'))?.messages.at(-2)).toEqual(user('hello'));
  });
});

describe('M4: the wait for a busy session has a bound', () => {
  it('a run that waits longer than sessionWaitMs fails with SessionBusyError, reading nothing', async () => {
    const sessions = memorySessionStore();
    const model = scriptedModel([{ text: 'slow' }, { text: 'never' }], { delayMs: 150 });
    const agent = new Agent({ model, sessions, sessionWaitMs: 30 });
    const first = agent.chat('one', { sessionId: 's' });
    await expect(agent.chat('two', { sessionId: 's' })).rejects.toSatisfy((e) => SessionBusyError.is(e));
    expect((await first).text).toBe('slow');
    expect(model.requests).toHaveLength(1);
    expect((await sessions.get('s'))?.messages.map((m) => m.content)).toEqual(['one', 'slow']);
  });
});
