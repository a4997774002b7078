import { concatMap, from, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type ChatModel,
  defineTool,
  memorySessionStore,
  SessionStoreError,
  type SessionStore,
  user,
} from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

/** A gate: a promise and the function that opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** A model whose first turn waits for `first` to open; counts the turns that started. */
function gatedModel(first: Promise<void>) {
  const scripted = scriptedModel([{ text: 'first' }, { text: 'second' }]);
  let started = 0;
  const model: ChatModel = {
    ...scripted,
    stream: (request, options): Observable<never> =>
      from(started++ === 0 ? first : Promise.resolve()).pipe(
        concatMap(() => scripted.stream(request, options)),
      ) as Observable<never>,
  };
  return { model, started: () => started, requests: scripted.requests };
}

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather.',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 18 }),
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('runs on one session in one process', () => {
  it('a queued run that is unsubscribed does not let the next one past the running one', async () => {
    const sessions = memorySessionStore();
    const turnA = gate();
    const { model, started, requests } = gatedModel(turnA.opened);
    const agent = new Agent({ model, sessions });
    const a = agent.chat('one', { sessionId: 's' });
    await expect.poll(started).toBe(1);
    agent.run('two', { sessionId: 's' }).subscribe().unsubscribe();
    const c = agent.chat('three', { sessionId: 's' });
    await settle();
    expect(started()).toBe(1); // C waits for A, although B (queued between them) left
    turnA.open();
    await expect(a).resolves.toMatchObject({ text: 'first' });
    await expect(c).resolves.toMatchObject({ text: 'second' });
    expect(requests[1]?.messages).toEqual([
      user('one'),
      expect.objectContaining({ content: 'first' }),
      user('three'),
    ]);
    expect((await sessions.get('s'))?.version).toBe(2);
  });

  it('a run unsubscribed while its append is in flight holds the session until the append settles', async () => {
    const inner = memorySessionStore();
    const write = gate();
    let appends = 0;
    const sessions: SessionStore = {
      get: (id) => inner.get(id),
      append: (id, messages, options) =>
        appends++ === 0
          ? write.opened.then(() => inner.append(id, messages, options))
          : inner.append(id, messages, options),
      delete: (id) => inner.delete(id),
      prune: (ms) => inner.prune(ms),
    };
    const agent = new Agent({ model: scriptedModel([{ text: 'first' }, { text: 'second' }]), sessions });
    const a = agent.run('one', { sessionId: 's' }).subscribe({ error: () => undefined });
    await expect.poll(() => appends).toBe(1);
    a.unsubscribe();
    const b = agent.chat('two', { sessionId: 's' });
    await settle();
    write.open();
    await expect(b).resolves.toMatchObject({ text: 'second' });
    const session = await inner.get('s');
    expect(session?.messages.map((m) => m.content)).toEqual(['one', 'first', 'two', 'second']);
    expect(session?.version).toBe(2);
  });
});

describe("onConflict: 'rebase' across processes", () => {
  it('many writers racing on one session: every run appended once, none lost, none duplicated', async () => {
    const shared = memorySessionStore();
    // Each agent has its own store object over the same data: to the agent, another process.
    const processStore = (): SessionStore => ({
      get: (id) => shared.get(id),
      append: (id, messages, options) => shared.append(id, messages, options),
      delete: (id) => shared.delete(id),
      prune: (ms) => shared.prune(ms),
    });
    const writers = Array.from({ length: 8 }, (_, index) => index);
    const runs = writers.map((index) =>
      new Agent({
        model: scriptedModel([{ text: `reply ${index}` }], { delayMs: 5 }),
        sessions: processStore(),
        onConflict: 'rebase',
      }).chat(`ask ${index}`, { sessionId: 'shared' }),
    );
    await Promise.all(runs);
    const session = await shared.get('shared');
    const contents = session?.messages.map((message) => message.content) ?? [];
    expect(contents).toHaveLength(writers.length * 2);
    for (const index of writers) {
      const at = contents.indexOf(`ask ${index}`);
      expect(contents.filter((content) => content === `ask ${index}`)).toHaveLength(1);
      expect(contents[at + 1]).toBe(`reply ${index}`);
    }
    expect(session?.version).toBe(writers.length);
  });
});

describe('a run whose final append fails', () => {
  it('does not append its finished steps again (persistPartialRuns is for runs that failed before)', async () => {
    const inner = memorySessionStore();
    let appends = 0;
    const lost = new SessionStoreError('memory', 'append', { message: 'connection reset after the write' });
    // The write lands, its acknowledgement is lost: the caller sees an error.
    const sessions: SessionStore = {
      get: (id) => inner.get(id),
      append: async (id, messages, options) => {
        const session = await inner.append(id, messages, options);
        if (++appends === 1) throw lost;
        return session;
      },
      delete: (id) => inner.delete(id),
      prune: (ms) => inner.prune(ms),
    };
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'Sunny.' },
    ]);
    const agent = new Agent({
      model,
      tools: [weather],
      sessions,
      persistPartialRuns: true,
      onConflict: 'rebase',
    });
    await expect(agent.chat('Weather?', { sessionId: 's' })).rejects.toBe(lost);
    const session = await inner.get('s');
    expect(session?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(appends).toBe(1);
  });
});
