import { concat, map, Observable, Subject, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-event.ts';
import {
  ApprovalNotPendingError,
  ReplayExpiredError,
  RunCancelledError,
  RunNotFoundError,
  TooManyRunsError,
} from '../src/core/index.ts';
import { RunRegistry, type SequencedEvent } from '../src/http/index.ts';
import { createScheduler } from './support/helpers.ts';

const delta = (text: string): AgentEvent => ({ type: 'text-delta', text });
const events = { a: delta('a'), b: delta('b'), c: delta('c'), d: delta('d') };
const seq = (n: number, event: AgentEvent): SequencedEvent => ({ id: `r1:${n}`, event });
/** Runs `check` at virtual time `frame` (inside `TestScheduler.run`). */
const at = (check: () => void, frame: number) => timer(frame).subscribe(check);
const ids = () => {
  let n = 0;
  return () => `r${++n}`;
};

describe('RunRegistry', () => {
  it('multicasts one subscription: a late watcher gets the past events, then the live ones', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const runs = new RunRegistry({ createId: ids(), graceMs: 100, retainMs: 100 });
      const src = cold('-a-b------c|', events);
      const { id } = runs.start(src);
      const out = { a: seq(1, events.a), b: seq(2, events.b), c: seq(3, events.c) };
      expectObservable(runs.attach(id)).toBe('-a-b------c|', out);
      expectObservable(runs.attach(id), '----^').toBe('----(ab)--c|', out);
      expectSubscriptions(src.subscriptions).toBe('^----------!');
    });
  });

  it('gives exactly the events after lastEventId, live ones included', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const runs = new RunRegistry({ createId: ids() });
      const { id } = runs.start(cold('-a-b-c-d|', events));
      const out = { c: seq(3, events.c), d: seq(4, events.d) };
      expectObservable(runs.attach(id, { lastEventId: 'r1:2' }), '----^').toBe('-----c-d|', out);
      expectObservable(runs.attach(id, { lastEventId: 'r1:2' }), '------^').toBe('------cd|', out);
    });
  });

  it('cancels a run nobody watches after graceMs, and not one somebody watches', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions, flush }) => {
      const runs = new RunRegistry({ createId: ids(), graceMs: 5, retainMs: 100 });
      const unwatched = cold('-a-b-c-d-|', events);
      runs.start(unwatched);
      expectSubscriptions(unwatched.subscriptions).toBe('^----!');
      const watched = cold('-a-b-c-d------|', events);
      const { id } = runs.start(watched);
      const out = { a: { id: 'r2:1', event: events.a }, b: { id: 'r2:2', event: events.b } };
      expectObservable(runs.attach(id), '^-!').toBe('-a', out);
      expectObservable(runs.attach(id), '--^-!').toBe('--ab', out);
      // Watched at 0–2 and 2–4: the grace restarts at 4 and runs out at 9.
      expectSubscriptions(watched.subscriptions).toBe('^--------!');
      at(() => expect([runs.statusHere('r1'), runs.statusHere('r2')]).toEqual(['cancelled', 'running']), 8);
      at(
        () => expect([runs.statusHere('r1'), runs.statusHere('r2')]).toEqual(['cancelled', 'cancelled']),
        10,
      );
      flush();
      expect(runs.statusHere('r1')).toBeUndefined();
    });
  });

  it('keeps a finished run attachable for retainMs, then forgets it', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const runs = new RunRegistry({ createId: ids(), retainMs: 4 });
      const { id } = runs.start(cold('-a|', events));
      expectObservable(runs.attach(id), '-----^').toBe('-----(a|)', { a: seq(1, events.a) });
      expectObservable(runs.attach(id), '-------^').toBe('-------#', undefined, new RunNotFoundError(id));
    });
  });

  it('stops only on cancel: watchers see the end (RunCancelledError), the source is unsubscribed', async () => {
    const answers: Promise<unknown>[] = [];
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const runs = new RunRegistry({ createId: ids() });
      const src = cold('-a-b-c-d|', events);
      const { id } = runs.start(src);
      at(() => answers.push(expect(runs.cancel(id)).resolves.toBe(true)), 4);
      expectObservable(runs.attach(id)).toBe(
        '-a-b#',
        { a: seq(1, events.a), b: seq(2, events.b) },
        new RunCancelledError(id),
      );
      expectSubscriptions(src.subscriptions).toBe('^---!');
      at(() => answers.push(expect(runs.cancel(id)).resolves.toBe(false)), 6);
    });
    expect(answers).toHaveLength(2);
    await Promise.all(answers);
  });

  it('ends a cancelled run as cancelled even when its source errors on the abort signal', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const runs = new RunRegistry({ createId: ids() });
      const src = cold('-a-b-c-d|', events);
      // Like agent.run(input, { signal }): aborting the signal errors the run.
      const { id } = runs.start(
        ({ signal }) =>
          new Observable<AgentEvent>((subscriber) => {
            const abort = () => subscriber.error(signal.reason);
            signal.addEventListener('abort', abort);
            const inner = src.subscribe(subscriber);
            return () => {
              signal.removeEventListener('abort', abort);
              inner.unsubscribe();
            };
          }),
      );
      at(() => void runs.cancel(id), 4);
      expectObservable(runs.attach(id)).toBe(
        '-a-b#',
        { a: seq(1, events.a), b: seq(2, events.b) },
        new RunCancelledError(id),
      );
      expectSubscriptions(src.subscriptions).toBe('^---!');
      at(() => expect(runs.statusHere(id)).toBe('cancelled'), 5);
    });
  });

  it('gives every watcher the event during which another watcher cancelled the run', () => {
    const source = new Subject<AgentEvent>();
    const runs = new RunRegistry({ createId: ids() });
    const { id } = runs.start(source);
    const first: string[] = [];
    const second: string[] = [];
    const text = ({ event }: SequencedEvent) => (event.type === 'text-delta' ? event.text : '');
    runs.attach(id).subscribe({
      next: (event) => {
        first.push(text(event));
        if (text(event) === 'b') void runs.cancel(id); // e.g. a Stop handled while the event is written
      },
      error: (error: unknown) => first.push(RunCancelledError.is(error) ? 'stopped' : 'failed'),
    });
    runs.attach(id).subscribe({
      next: (event) => second.push(text(event)),
      error: (error: unknown) => second.push(RunCancelledError.is(error) ? 'stopped' : 'failed'),
    });
    source.next(events.a);
    source.next(events.b);
    expect(first).toEqual(['a', 'b', 'stopped']);
    expect(second).toEqual(['a', 'b', 'stopped']);
    expect(source.observed).toBe(false);
  });

  it('passes a failure on to every watcher', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const runs = new RunRegistry({ createId: ids() });
      const error = new Error('model down');
      const { id } = runs.start(cold('-a#', events, error));
      expectObservable(runs.attach(id)).toBe('-a#', { a: seq(1, events.a) }, error);
      expectObservable(runs.attach(id), '----^').toBe('----(a#)', { a: seq(1, events.a) }, error);
    });
  });

  it('refuses an id older than the replay buffer, an unknown run, and an id of another run', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const runs = new RunRegistry({ createId: ids(), replayLimit: 2 });
      const { id } = runs.start(cold('-a-b-c-d|', events));
      expectObservable(runs.attach(id, { lastEventId: 'r1:2' }), '--------^').toBe('--------(cd|)', {
        c: seq(3, events.c),
        d: seq(4, events.d),
      });
      expectObservable(runs.attach(id, { lastEventId: 'r1:1' }), '--------^').toBe(
        '--------#',
        undefined,
        new ReplayExpiredError(id, 'r1:1'),
      );
      expectObservable(runs.attach('nope')).toBe('#', undefined, new RunNotFoundError('nope'));
      // Named by the id the client sent (D9: not "No run r1", which exists).
      expectObservable(runs.attach(id, { lastEventId: 'r9:1' })).toBe(
        '#',
        undefined,
        new RunNotFoundError('r9', `Last-Event-ID r9:1 is an event of another run, not of run ${id}`),
      );
      expectObservable(runs.attach(id, { lastEventId: 'garbage' })).toBe(
        '#',
        undefined,
        new RunNotFoundError(
          'garbage',
          `Last-Event-ID "garbage" is not an event id (<run id>:<number>) of run ${id}`,
        ),
      );
    });
  });

  it('forgets the oldest finished run to make room, and refuses a run when all are running', () => {
    createScheduler().run(({ cold, flush }) => {
      const runs = new RunRegistry({ createId: ids(), maxRuns: 2 });
      runs.start(cold('-a|', events));
      runs.start(cold('-a-b-c|', events));
      flush();
      // Run 1 finished; run 2 too, both retained. Both are finished, so a third evicts run 1.
      runs.start(cold('-a-b-c|', events));
      expect(runs.statusHere('r1')).toBeUndefined();
      runs.start(cold('-a-b-c|', events));
      expect(() => runs.start(cold('-a|', events))).toThrow(TooManyRunsError);
    });
  });

  it('feeds decisions to the run; a pending approval survives its watchers leaving', async () => {
    const answers: Promise<unknown>[] = [];
    createScheduler().run(({ cold, expectObservable }) => {
      const runs = new RunRegistry({ createId: ids() });
      const toolCall = { id: 'call_1', name: 'delete_file', arguments: { path: 'a' } };
      const requested: AgentEvent = { type: 'approval-requested', step: 1, toolCall };
      const { id } = runs.start(({ approve }) =>
        concat(
          cold('-q|', { q: requested }),
          approve({ toolCall }).pipe(map((approved) => delta(approved ? 'yes' : 'no'))),
        ),
      );
      at(() => expect(runs.approvals(id)).toEqual([toolCall]), 2);
      at(() => {
        answers.push(
          expect(runs.decide(id, 'call_9', { approved: true })).rejects.toThrow(ApprovalNotPendingError),
        );
        answers.push(expect(runs.decide(id, 'call_1', { approved: true })).resolves.toBeUndefined());
      }, 5);
      at(() => expect(runs.approvals(id)).toEqual([]), 6);
      const out = { q: seq(1, requested), y: seq(2, delta('yes')) };
      expectObservable(runs.attach(id), '^--!').toBe('-q-', out);
      expectObservable(runs.attach(id), '----^').toBe('----q(y|)', out);
      answers.push(
        expect(runs.decide('nope', 'call_1', { approved: true })).rejects.toThrow(RunNotFoundError),
      );
      expect(runs.approvals('nope')).toEqual([]);
    });
    expect(answers).toHaveLength(3);
    await Promise.all(answers);
  });
});
