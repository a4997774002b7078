import { from, NEVER } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { ReplayExpiredError, RunNotFoundError, TooManyRunsError } from '../../src/core/index.ts';
import { memoryRunEventStore, RunRegistry } from '../../src/http/index.ts';
import { settle } from '../support/settle.ts';

const delta = (text: string): AgentEvent => ({ type: 'text-delta', text });
const kb = 'x'.repeat(1024);
const run = (n: number, text = kb) => from(Array.from({ length: n }, () => delta(text)));

describe('RunRegistry memory is bounded in bytes (finding 18)', () => {
  it('forgets the oldest finished runs once the store holds more than maxBytes', async () => {
    const store = memoryRunEventStore();
    const runs = new RunRegistry({ eventStore: store, maxBytes: 300_000 });
    const ids = Array.from({ length: 10 }, () => runs.start(run(100)).id); // about 110 kB each
    expect(store.heldBytes!()).toBeLessThanOrEqual(300_000);
    await expect(runs.status(ids[0]!)).resolves.toBeNull();
    await expect(runs.status(ids[9]!)).resolves.toBe('completed');
    expect((await settle(runs.attach(ids[9]!))).events).toHaveLength(100);
    runs.close();
    expect(store.heldBytes!()).toBe(0);
  });

  it('keeps the newest maxRunBytes of one run: an older event is ReplayExpiredError, never a silent gap', async () => {
    const store = memoryRunEventStore({ maxRunBytes: 50_000 });
    const runs = new RunRegistry({ eventStore: store });
    const { id } = runs.start(run(100, 'y'.repeat(10_000)));
    expect(store.heldBytes!()).toBeLessThanOrEqual(50_000);
    expect((await settle(runs.attach(id))).error).toBeInstanceOf(ReplayExpiredError);
    const tail = await settle(runs.attach(id, { lastEventId: `${id}:97` }));
    expect(tail.events.map((e) => e.id)).toEqual([`${id}:98`, `${id}:99`, `${id}:100`]);
    runs.close();
  });
});

describe('RunRegistry runs have owners (finding 20)', () => {
  const alice = { id: 'alice' };
  const bob = { id: 'bob' };

  it('limits the runs one actor has running, not the others', () => {
    const runs = new RunRegistry({ maxRunsPerActor: 2 });
    runs.start(NEVER, { actor: alice });
    runs.start(NEVER, { actor: alice });
    expect(() => runs.start(NEVER, { actor: alice })).toThrow(TooManyRunsError);
    expect(runs.start(NEVER, { actor: bob }).id).toMatch(/^[0-9a-f-]{36}$/);
    runs.close();
  });

  it('refuses attach, cancel and decide from another actor, as for an unknown run', async () => {
    const runs = new RunRegistry();
    const { id } = runs.start(NEVER, { actor: alice });
    expect((await settle(runs.attach(id, { actor: bob }))).error).toBeInstanceOf(RunNotFoundError);
    expect((await settle(runs.attach(id))).error).toBeInstanceOf(RunNotFoundError);
    await expect(runs.cancel(id, { actor: bob })).resolves.toBe(false);
    await expect(runs.decide(id, 'c', { approved: true }, { actor: bob })).rejects.toBeInstanceOf(
      RunNotFoundError,
    );
    await expect(runs.check(id, { actor: bob })).rejects.toBeInstanceOf(RunNotFoundError);
    await expect(runs.cancel(id, { actor: alice })).resolves.toBe(true);
    runs.close();
  });

  it('lets an authorize hook decide (a support role may watch any run), and makes unguessable ids', async () => {
    const runs = new RunRegistry({
      authorize: (actor, run, action) =>
        actor?.id === run.owner || (action === 'attach' && actor?.roles?.includes('support') === true),
    });
    const { id } = runs.start(run(1), { actor: alice });
    const support = { id: 'sam', roles: ['support'] };
    expect((await settle(runs.attach(id, { actor: support }))).events).toHaveLength(1);
    await expect(runs.cancel(id, { actor: support })).resolves.toBe(false);
    const ids = new Set(Array.from({ length: 100 }, () => runs.start(run(0)).id));
    expect(ids.size).toBe(100);
    runs.close();
  });
});
