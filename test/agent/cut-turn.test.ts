import { lastValueFrom, type Observable, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  type ChatModel,
  IncompleteStreamError,
  memoryResponseCache,
  type StreamEvent,
} from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

/** A model whose first stream says "Hel" and then just completes, with no `stream-completed`. */
function cutFirstTurn() {
  const scripted = scriptedModel([{ text: ['Hel', 'lo'] }]);
  let calls = 0;
  const model: ChatModel = {
    ...scripted,
    stream: (request, options): Observable<StreamEvent> =>
      calls++ === 0
        ? of<StreamEvent>({ type: 'text-delta', text: 'Hel' })
        : scripted.stream(request, options),
  };
  return { model, calls: () => calls };
}

describe('a model turn that completes before its end', () => {
  it('is a cut stream: the step is restarted like after a dropped connection', async () => {
    const { model, calls } = cutFirstTurn();
    const events = await lastValueFrom(new Agent({ model }).run('hi').pipe(toArray()));
    expect(calls()).toBe(2);
    expect(events.map((event) => event.type)).toContain('step-restarted');
    expect(events.at(-1)).toMatchObject({ type: 'agent-completed', result: { text: 'Hello' } });
  });

  it('is never kept by the response cache, so the next run asks the model again', async () => {
    const { model, calls } = cutFirstTurn();
    const agent = new Agent({ model, temperature: 0, stepRetries: 0, responseCache: memoryResponseCache() });
    await expect(agent.chat('hi')).rejects.toBeInstanceOf(IncompleteStreamError);
    await expect(agent.chat('hi')).resolves.toMatchObject({ text: 'Hello' });
    expect(calls()).toBe(2);
  });
});
