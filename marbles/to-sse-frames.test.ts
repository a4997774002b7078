import { describe, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-event.ts';
import { RxAgentError } from '../src/core/index.ts';
import { toSSEFrames } from '../src/http/index.ts';
import { createScheduler } from './support/helpers.ts';

const hi: AgentEvent = { type: 'text-delta', text: 'Hi' };
const there: AgentEvent = { type: 'text-delta', text: ' there' };
const frames = {
  a: 'id: run:1\ndata: {"type":"text-delta","text":"Hi"}\n\n',
  b: 'data: {"type":"text-delta","text":" there"}\n\n',
  p: ': ping\n\n',
  e: 'event: end\ndata: {}\n\n',
  r: 'retry: 2000\n\n',
  x: 'event: error\ndata: {"name":"RxAgentError","code":"boom","message":"Boom"}\n\n',
  y: 'event: error\ndata: {"name":"Error","code":"internal_error","message":"The run failed"}\n\n',
};

describe('toSSEFrames', () => {
  it('writes a SequencedEvent with its id and a bare event without, then event: end', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-|', { a: { id: 'run:1', event: hi }, b: there });
      expectObservable(src.pipe(toSSEFrames({ heartbeatMs: 0 }))).toBe('-a-b-(e|)', frames);
      expectSubscriptions(src.subscriptions).toBe('^----!');
    });
  });

  it('sends a heartbeat after each heartbeatMs of silence, and none once the source ended', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold('-a------b-----|', { a: { id: 'run:1', event: hi }, b: there });
      expectObservable(src.pipe(toSSEFrames({ heartbeatMs: 3 }))).toBe('-a--p--pb--p--(e|)', frames);
    });
  });

  it('starts with retry: when retryMs is given', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold('--b|', { b: there });
      expectObservable(src.pipe(toSSEFrames({ heartbeatMs: 0, retryMs: 2000 }))).toBe('r-b(e|)', frames);
    });
  });

  it("ends a failed stream with event: error: an rxagent error's message, never another's", () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const failed = cold('-b-#', { b: there }, new RxAgentError('Boom', 'boom'));
      expectObservable(failed.pipe(toSSEFrames({ heartbeatMs: 0 }))).toBe('-b-(x|)', frames);
      const leaky = cold('-#', {}, new Error('password=hunter2'));
      expectObservable(leaky.pipe(toSSEFrames({ heartbeatMs: 0 }))).toBe('-(y|)', frames);
    });
  });

  it('errors instead of writing end frames when endFrames is false', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const error = new RxAgentError('Boom', 'boom');
      expectObservable(
        cold('-b|', { b: there }).pipe(toSSEFrames({ heartbeatMs: 0, endFrames: false })),
      ).toBe('-b|', frames);
      expectObservable(
        cold('-b#', { b: there }, error).pipe(toSSEFrames({ heartbeatMs: 0, endFrames: false })),
      ).toBe('-b#', frames, error);
    });
  });

  it('unsubscribes from the source (and stops the heartbeats) when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-------b|', { a: { id: 'run:1', event: hi }, b: there });
      expectObservable(src.pipe(toSSEFrames({ heartbeatMs: 2 })), '------!').toBe('-a-p-p', frames);
      expectSubscriptions(src.subscriptions).toBe('^-----!');
    });
  });
});
