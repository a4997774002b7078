import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplayExpiredError, RunNotFoundError } from '../../src/core/index.ts';
import { type DurableSetup, durableSetup } from './support/durable-setup.ts';

let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  setup = undefined;
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
