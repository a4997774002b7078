import { describe, it } from 'vitest';
import type { AgentEvent } from '../src/agent/index.ts';
import type { ToolOutcome } from '../src/tools/index.ts';
import { toUIMessageStream, untilApprovalsWait } from '../src/http/index.ts';
import { createScheduler } from './support/helpers.ts';

const call = { id: 'c1', name: 'send_email', arguments: { to: 'ann' } };
const outcome: ToolOutcome = {
  status: 'ok',
  toolCallId: 'c1',
  name: 'send_email',
  result: { sent: true },
  content: '{"sent":true}',
  durationMs: 1,
};
const events: Record<string, AgentEvent> = {
  s: { type: 'step-started', step: 1 },
  t: { type: 'text-delta', text: 'Hi' },
  r: { type: 'tool-calls-ready', toolCalls: [call] },
  a: { type: 'approval-requested', step: 1, toolCall: call },
  o: { type: 'tool-result', step: 1, toolCall: call, outcome },
};

describe('untilApprovalsWait', () => {
  it('ends the stream after the settle time when a request stays unanswered', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<AgentEvent>('-s-r-a------------', events);
      expectObservable(src.pipe(untilApprovalsWait(5))).toBe('-s-r-a----|', events);
      expectSubscriptions(src.subscriptions).toBe('^---------!');
    });
  });

  it('goes on when the result follows within the settle time (a replayed log), and ends with the source', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold<AgentEvent>('-s-r-a-o-t-|', events);
      expectObservable(src.pipe(untilApprovalsWait(5))).toBe('-s-r-a-o-t-|', events);
    });
  });

  it('unsubscribing early ends the source subscription and the settle timer', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<AgentEvent>('-s-r-a------', events);
      expectObservable(src.pipe(untilApprovalsWait(5)), '------!').toBe('-s-r-a', events);
      expectSubscriptions(src.subscriptions).toBe('^-----!');
    });
  });
});

describe('toUIMessageStream', () => {
  it('maps each event as it comes: start at once, text parts opened and closed, the step finished', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<AgentEvent>('-s-t----r----|', events);
      expectObservable(src.pipe(toUIMessageStream())).toBe('xy-(ab)-(cd)-(fg|)', {
        x: { type: 'start' },
        y: { type: 'start-step' },
        a: { type: 'text-start', id: 'text-1-1' },
        b: { type: 'text-delta', id: 'text-1-1', delta: 'Hi' },
        c: { type: 'text-end', id: 'text-1-1' },
        d: { type: 'tool-input-available', toolCallId: 'c1', toolName: 'send_email', input: { to: 'ann' } },
        f: { type: 'finish-step' },
        g: { type: 'abort', reason: 'The run was stopped' },
      });
      expectSubscriptions(src.subscriptions).toBe('^------------!');
    });
  });
});
