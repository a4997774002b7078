import { lastValueFrom, map, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { textDeltas } from '../../src/agent/index.ts';
import { type DurableSetup, durableSetup } from './support/durable-setup.ts';
import { type ModelServer, startModelServer } from './support/model-server.ts';

const WORDS = ['Hello', ' from', ' a', ' worker', ' process', '.'];

let model: ModelServer | undefined;
let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  await model?.close();
  setup = undefined;
  model = undefined;
});

const textOf = (setupNow: DurableSetup, runId: string, lastEventId?: string) =>
  lastValueFrom(
    setupNow.runs.attach(runId, lastEventId === undefined ? {} : { lastEventId }).pipe(
      map(({ event }) => event),
      textDeltas(),
      toArray(),
    ),
  ).then((parts) => parts.join(''));

describe('durable runs with a worker in another process', () => {
  it('start returns at once; a worker process runs the run; attach streams it to the end', async () => {
    model = await startModelServer({ words: WORDS, delayMs: 20 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    const { runId, sessionId } = await setup.runs.start('chat', 'Hi');
    // Nothing runs it yet: no worker.
    expect(await setup.runs.status(runId)).toBe('queued');
    const text = textOf(setup, runId);
    setup.spawnWorker();
    expect(await text).toBe(WORDS.join(''));
    expect(await setup.runs.status(runId)).toBe('completed');
    const session = await setup.sessions.get(sessionId);
    expect(session?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  }, 30_000);
});
