import { EMPTY, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../src/agent/index.ts';
import { approvalDecision, NO_ANSWER } from '../src/agent/approval-decision.ts';

const request = { step: 1, toolCall: { id: 'call_1', name: 'transfer', arguments: { amount: 5 } } };

describe('approvalDecision (marbles)', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it("takes the approver's first answer", () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer = cold('--t-f|', { t: true, f: false });
      const decision = approvalDecision(() => answer, request, new AbortController().signal, undefined);
      expectObservable(decision).toBe('--(t|)', { t: true });
      expectSubscriptions(answer.subscriptions).toBe('^-!');
    });
  });

  it('decides "no one answered" at approvalTimeoutMs and stops asking', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer = cold('-----t', { t: true });
      const signals: AbortSignal[] = [];
      const approver = (asked: ApprovalRequest): Observable<boolean> => {
        signals.push(asked.signal);
        return answer;
      };
      expectObservable(approvalDecision(approver, request, new AbortController().signal, 3)).toBe('---(f|)', {
        f: { approved: false, reason: NO_ANSWER },
      });
      expectSubscriptions(answer.subscriptions).toBe('^--!');
      scheduler.schedule(() => expect(signals[0]?.aborted).toBe(true), 4);
    });
  });

  it('decides false when the call is cancelled', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer = cold('-----t', { t: true });
      const cancel = new AbortController();
      scheduler.schedule(() => cancel.abort(), 2);
      expectObservable(approvalDecision(() => answer, request, cancel.signal, undefined)).toBe('--(f|)', {
        f: false,
      });
      expectSubscriptions(answer.subscriptions).toBe('^-!');
    });
  });

  it('no approver, no answer, a throwing approver, or an already cancelled call: false', () => {
    scheduler.run(({ expectObservable }) => {
      const live = new AbortController().signal;
      expectObservable(approvalDecision(undefined, request, live, undefined)).toBe('(f|)', { f: false });
      expectObservable(approvalDecision(() => EMPTY, request, live, undefined)).toBe('(f|)', { f: false });
      const throwing = () => {
        throw new Error('approver bug');
      };
      expectObservable(approvalDecision(throwing, request, live, undefined)).toBe('(f|)', { f: false });
      expectObservable(approvalDecision(() => true, request, AbortSignal.abort(), undefined)).toBe('(f|)', {
        f: false,
      });
    });
  });

  it('unsubscribing early unsubscribes from the approver and aborts its signal', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer = cold('-----t', { t: true });
      const signals: AbortSignal[] = [];
      const approver = (asked: ApprovalRequest) => {
        signals.push(asked.signal);
        return answer;
      };
      expectObservable(
        approvalDecision(approver, request, new AbortController().signal, undefined),
        '^-!',
      ).toBe('--');
      expectSubscriptions(answer.subscriptions).toBe('^-!');
      scheduler.schedule(() => expect(signals[0]?.aborted).toBe(true), 3);
    });
  });
});
