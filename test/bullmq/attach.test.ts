import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplayExpiredError, RunNotFoundError } from '../../src/core/index.ts';
import { isResumable } from '../../src/http/index.ts';
import { chatAgent } from './support/chat-agent.ts';
import { type DurableSetup, durableSetup } from './support/durable-setup.ts';
import { type ModelServer, startModelServer } from './support/model-server.ts';

let setup: DurableSetup | undefined;

let model: ModelServer | undefined;

afterEach(async () => {
  await setup?.close();
  setup = undefined;
  await model?.close();
  model = undefined;
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('attach and check refuse what they cannot serve, typed', () => {
  it('an unknown run, another actor’s run, another run’s event id: RunNotFoundError; an id past the end: ReplayExpiredError', async () => {
    setup = durableSetup('http://127.0.0.1:9/v1', { agents: ['chat'] });
    const { runId } = await setup.runs.start('chat', 'Hi', { actor: { id: 'alice' } });
    const other = setup.appServer();
    const cases = [
      { runId: 'no-such-run', options: {} },
      { runId, options: { actor: { id: 'mallory' } } },
      { runId, options: {} },
      { runId, options: { actor: { id: 'alice' }, lastEventId: 'another-run:1' } },
    ];
    for (const { runId: id, options } of cases) {
      expect(RunNotFoundError.is(await failure(other.check(id, options))), JSON.stringify(options)).toBe(
        true,
      );
      expect(RunNotFoundError.is(await failure(lastValueFrom(other.attach(id, options))))).toBe(true);
    }
    const far = { actor: { id: 'alice' }, lastEventId: `${runId}:99` };
    expect(ReplayExpiredError.is(await failure(other.check(runId, far)))).toBe(true);
    expect(ReplayExpiredError.is(await failure(lastValueFrom(other.attach(runId, far))))).toBe(true);
    // The owner may: the run is queued, its stream open.
    await other.check(runId, { actor: { id: 'alice' } });
    expect(await other.status(runId)).toBe('queued');
    expect(await other.status('no-such-run')).toBeNull();
  });
});

describe('attach can be read again after any event (what writeSSE and BodyPacer pace with)', () => {
  it('is resumable: resumeAfter(id) gives the events after that one, as a fresh attach would', async () => {
    model = await startModelServer({ words: ['One ', 'two ', 'three.'], delayMs: 5 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    const worker = setup.runs.work({ chat: chatAgent(model.baseURL, setup.sessions) });
    try {
      const alice = { id: 'alice' };
      const { runId } = await setup.runs.start('chat', 'Count', { actor: alice });
      const attached = setup.runs.attach(runId, { actor: alice });
      expect(isResumable(attached)).toBe(true);
      const all = await lastValueFrom(attached.pipe(toArray()));
      expect(all.length).toBeGreaterThan(3);
      if (!isResumable(attached)) return;
      const rest = await lastValueFrom(attached.resumeAfter(all[1]!.id).pipe(toArray()));
      expect(rest.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
    } finally {
      await worker.close();
    }
  });
});
