import { lastValueFrom, Observable, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, eachEvent, NetworkError, textDeltas } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

const cut = { text: ['The capital ', 'of France '], error: new NetworkError('connection reset') };

describe('textDeltas', () => {
  it('withholds the repeat of a restarted step, so the text reads once', async () => {
    const model = scriptedModel([cut, { text: ['The capital ', 'of France ', 'is Paris.'] }]);
    const agent = new Agent({ model });
    const pieces = await lastValueFrom(agent.run('Capital?').pipe(textDeltas(), toArray()));
    expect(pieces.join('')).toBe('The capital of France is Paris.');
  });

  it('a new attempt that departs from what was shown passes on its own text from there', async () => {
    const model = scriptedModel([cut, { text: ['The capital ', 'is Paris.'] }]);
    const pieces = await lastValueFrom(new Agent({ model }).run('Capital?').pipe(textDeltas(), toArray()));
    expect(pieces.join('')).toBe('The capital of France is Paris.');
  });

  it('passes every step of a run, one string per delta', async () => {
    const model = scriptedModel([{ text: ['a', 'b'] }]);
    expect(await lastValueFrom(new Agent({ model }).run('x').pipe(textDeltas(), toArray()))).toEqual([
      'a',
      'b',
    ]);
  });
});

describe('eachEvent', () => {
  it('iterates a run with for await and ends after agent-completed', async () => {
    const model = scriptedModel([{ text: ['a', 'b'] }]);
    const types: string[] = [];
    for await (const event of eachEvent(new Agent({ model }).run('x'))) types.push(event.type);
    expect(types).toEqual(['step-started', 'text-delta', 'text-delta', 'step-completed', 'agent-completed']);
  });

  it('break unsubscribes: the model stream is cancelled', async () => {
    const model = scriptedModel([{ text: ['a', 'b', 'c'] }], { delayMs: 20 });
    let unsubscribed = false;
    const run$ = new Agent({ model }).run('x');
    const watched = new Observable<AgentEvent>((subscriber) => {
      const subscription = run$.subscribe(subscriber);
      return () => {
        unsubscribed = true;
        subscription.unsubscribe();
      };
    });
    for await (const event of eachEvent(watched)) if (event.type === 'text-delta') break;
    expect(unsubscribed).toBe(true);
  });

  it('throws the run error from the loop', async () => {
    const model = scriptedModel([{ error: new Error('boom') }]);
    const iterate = async () => {
      for await (const _event of eachEvent(new Agent({ model, stepRetries: 0 }).run('x'))) void _event;
    };
    await expect(iterate()).rejects.toThrow('boom');
  });
});
