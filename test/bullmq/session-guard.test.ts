import { afterEach, describe, expect, it } from 'vitest';
import { InvalidRequestError, TooManyRunsError } from '../../src/core/index.ts';
import { type DurableSetup, durableSetup, withQueue } from './support/durable-setup.ts';

let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

async function jobCount(s: DurableSetup): Promise<number> {
  return withQueue(s, async (queue) => Object.values(await queue.getJobCounts()).reduce((a, b) => a + b, 0));
}

const rejection = (done: Promise<unknown>) =>
  done.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('a session belongs to the actor whose run made it (no worker needed: nothing runs)', () => {
  it("another actor's start on it, or an anonymous one, is refused with nothing enqueued", async () => {
    setup = durableSetup('http://127.0.0.1:9', { agents: ['chat'] });
    const alice = { id: 'alice' };
    const { sessionId } = await setup.runs.start('chat', 'My PIN is 1234', { actor: alice });
    // From another app server too: the owner is shared.
    const other = setup.appServer({ agents: ['chat'] });
    for (const actor of [{ id: 'mallory' }, undefined]) {
      const error = await rejection(
        other.start('chat', 'What is my PIN?', { sessionId, ...(actor ? { actor } : {}) }),
      );
      expect(InvalidRequestError.is(error) && error.option === 'sessionId').toBe(true);
    }
    expect(await jobCount(setup)).toBe(1);
    // Its owner may go on.
    await other.start('chat', 'Thanks', { sessionId, actor: alice });
    expect(await jobCount(setup)).toBe(2);
  });

  it('a session made without an actor stays open to anyone with its id', async () => {
    setup = durableSetup('http://127.0.0.1:9', { agents: ['chat'] });
    const { sessionId } = await setup.runs.start('chat', 'Hi');
    await setup.runs.start('chat', 'Hi', { sessionId, actor: { id: 'bob' } });
    expect(await jobCount(setup)).toBe(2);
  });
});

describe('the runs waiting on one session are bounded', () => {
  it('a flood of start for one session is refused past maxRunsPerSession (TooManyRunsError), nothing enqueued', async () => {
    setup = durableSetup('http://127.0.0.1:9', { agents: ['chat'], maxRunsPerSession: 3 });
    const actor = { id: 'flood' };
    const { sessionId } = await setup.runs.start('chat', 'one', { actor });
    await setup.runs.start('chat', 'two', { sessionId, actor });
    await setup.runs.start('chat', 'three', { sessionId, actor });
    const error = await rejection(setup.runs.start('chat', 'four', { sessionId, actor }));
    expect(TooManyRunsError.is(error)).toBe(true);
    expect(await jobCount(setup)).toBe(3);
    // Other sessions are not affected.
    await setup.runs.start('chat', 'elsewhere', { actor });
    expect(await jobCount(setup)).toBe(4);
  });
});
