import { EventType } from '@ag-ui/core';
import { describe, it } from 'vitest';
import type { AgentEvent } from '../src/agent/agent-event.ts';
import { RxAgentError } from '../src/core/index.ts';
import { toAgUiEvents } from '../src/ag-ui/index.ts';
import { createScheduler } from './support/helpers.ts';

const ids = { threadId: 't', runId: 'r' };
const toolCall = { id: 'c1', name: 'rm', arguments: { path: 'a' } };
const agentEvents: Record<string, AgentEvent> = {
  s: { type: 'step-started', step: 1 },
  a: { type: 'text-delta', text: 'Hi' },
  q: { type: 'approval-requested', step: 1, toolCall },
};

describe('toAgUiEvents', () => {
  it('opens the run at subscription and a message at the first delta', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold('-s-a---a---|', agentEvents);
      expectObservable(src.pipe(toAgUiEvents(ids))).toBe('RS-(mc)c---(eFX|)', {
        R: { type: EventType.RUN_STARTED, threadId: 't', runId: 'r' },
        S: { type: EventType.STEP_STARTED, stepName: 'step-1' },
        m: { type: EventType.TEXT_MESSAGE_START, messageId: 'r-m1', role: 'assistant' },
        c: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: 'r-m1', delta: 'Hi' },
        e: { type: EventType.TEXT_MESSAGE_END, messageId: 'r-m1' },
        F: { type: EventType.STEP_FINISHED, stepName: 'step-1' },
        X: { type: EventType.RUN_FINISHED, threadId: 't', runId: 'r', outcome: { type: 'cancelled' } },
      });
    });
  });

  it('ends with an interrupt at an approval and unsubscribes from the source', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-s--q---a|', agentEvents);
      expectObservable(src.pipe(toAgUiEvents({ ...ids, omitRunStarted: true }))).toBe('-S--(FI|)', {
        S: { type: EventType.STEP_STARTED, stepName: 'step-1' },
        F: { type: EventType.STEP_FINISHED, stepName: 'step-1' },
        I: {
          type: EventType.RUN_FINISHED,
          threadId: 't',
          runId: 'r',
          outcome: {
            type: 'interrupt',
            interrupts: [
              {
                id: 'c1',
                reason: 'tool_approval',
                toolCallId: 'c1',
                message: 'Allow rm({"path":"a"})?',
                responseSchema: {
                  type: 'object',
                  properties: { approved: { type: 'boolean' } },
                  required: ['approved'],
                },
              },
            ],
          },
        },
      });
      expectSubscriptions(src.subscriptions).toBe('^---!');
    });
  });

  it('turns an error into RUN_ERROR and completes', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold('-#', agentEvents, new RxAgentError('no', 'nope'));
      expectObservable(src.pipe(toAgUiEvents({ ...ids, omitRunStarted: true }))).toBe('-(E|)', {
        E: { type: EventType.RUN_ERROR, message: 'no', code: 'nope' },
      });
    });
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-s-a-a-|', agentEvents);
      expectObservable(src.pipe(toAgUiEvents({ ...ids, omitRunStarted: true })), '--!').toBe('-S', {
        S: { type: EventType.STEP_STARTED, stepName: 'step-1' },
      });
      expectSubscriptions(src.subscriptions).toBe('^-!');
    });
  });
});
