import { catchError, map, type Observable, of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, type AgentOptions } from '../src/agent/index.ts';
import {
  ApiError,
  assistant,
  type ChatModel,
  type ChatResponse,
  NetworkError,
  type StreamEvent,
  type ToolCall,
} from '../src/index.ts';
import { scriptedModel } from '../src/testing/index.ts';

function response(text: string, toolCalls: ToolCall[] = []): ChatResponse {
  return {
    message: assistant(text, toolCalls),
    text,
    toolCalls,
    finishReason: toolCalls.length > 0 ? 'tool-calls' : 'stop',
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    provider: 'cold',
    model: 'cold-1',
    timing: { totalMs: 1 },
  };
}

/** A model whose n-th stream is the n-th given observable. */
function coldModel(turns: Observable<StreamEvent>[]): ChatModel {
  let index = 0;
  return {
    provider: 'cold',
    modelId: 'cold-1',
    capabilities: { streaming: true, tools: true, vision: false, json: false, reasoning: false },
    stream: () => turns[index++] ?? of(),
    complete: () => Promise.reject(new Error('not used')),
  };
}

const call = (id: string, city = 'Oslo'): ToolCall => ({ id, name: 'get_weather', arguments: { city } });
const calls = (...list: ToolCall[]) => ({
  t: { type: 'tool-calls-ready', toolCalls: list } as StreamEvent,
  c: { type: 'stream-completed', response: response('', list) } as StreamEvent,
});
const values: Record<string, StreamEvent> = {
  a: { type: 'text-delta', text: 'A' },
  b: { type: 'text-delta', text: 'B' },
  c: { type: 'stream-completed', response: response('AB') },
};

/** Each event as a short label, so marbles stay readable. */
function label(event: AgentEvent): string {
  switch (event.type) {
    case 'text-delta':
      return event.text;
    case 'step-started':
      return `S${event.step}`;
    case 'step-restarted':
      return `R${event.step}`;
    case 'step-completed':
      return `C${event.step}`;
    case 'agent-completed':
      return `Z:${event.result.text}`;
    default:
      return event.type;
  }
}
const labels = (run$: Observable<AgentEvent>) =>
  run$.pipe(
    map(label),
    catchError((error: { code?: string; budget?: string }) => of(`E:${error.code}:${error.budget ?? ''}`)),
  );
const agentWith = (model: ChatModel, options: Partial<AgentOptions> = {}) =>
  new Agent({ model, tools: [], ...options });

describe('agent loop (marbles)', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('passes text deltas through as they arrive and completes after the last step', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = cold('-a--b-(c|)', values);
      const run$ = agentWith(coldModel([turn])).run('hi');
      expectObservable(labels(run$)).toBe('sa--b-(dz|)', { s: 'S1', a: 'A', b: 'B', d: 'C1', z: 'Z:AB' });
      expectSubscriptions(turn.subscriptions).toBe('^-----!');
    });
  });

  it('restarts a step that fails after partial output, after step-restarted', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold('-a-#', values, new NetworkError('connection reset'));
      const second = cold('-a-b-(c|)', values);
      const run$ = agentWith(coldModel([first, second])).run('hi');
      expectObservable(labels(run$)).toBe('sa-ra-b-(dz|)', {
        s: 'S1',
        a: 'A',
        r: 'R1',
        b: 'B',
        d: 'C1',
        z: 'Z:AB',
      });
      expectSubscriptions(first.subscriptions).toBe('^--!');
      expectSubscriptions(second.subscriptions).toBe('---^----!');
    });
  });

  it('does not restart past stepRetries, nor a failure before any output', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const serverError = new ApiError('overloaded', { status: 503, provider: 'cold' });
      const once = cold('-a-#', values, serverError);
      const again = cold('-a-#', values, serverError);
      const never = cold('-c|', values);
      const run$ = agentWith(coldModel([once, again, never])).run('hi');
      expectObservable(labels(run$)).toBe('sa-ra-(e|)', { s: 'S1', a: 'A', r: 'R1', e: 'E:api_error:' });
      expectSubscriptions(never.subscriptions).toBe([]);
      const early = cold('--#', values, new NetworkError('refused'));
      const spare = cold('-c|', values);
      const run2$ = agentWith(coldModel([early, spare])).run('hi');
      expectObservable(labels(run2$)).toBe('s-(e|)', { s: 'S1', e: 'E:network_error:' });
      expectSubscriptions(spare.subscriptions).toBe([]);
    });
  });

  it('restarts a turn that completes after partial output without stream-completed (a cut stream)', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const cut = cold('-a-|', values);
      const whole = cold('-a-b-(c|)', values);
      const run$ = agentWith(coldModel([cut, whole])).run('hi');
      expectObservable(labels(run$)).toBe('sa-ra-b-(dz|)', {
        s: 'S1',
        a: 'A',
        r: 'R1',
        b: 'B',
        d: 'C1',
        z: 'Z:AB',
      });
      expectSubscriptions(cut.subscriptions).toBe('^--!');
      expectSubscriptions(whole.subscriptions).toBe('---^----!');
    });
  });

  it('unsubscribing early unsubscribes from the model stream', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = cold('-a--b-(c|)', values);
      const run$ = agentWith(coldModel([turn])).run('hi');
      expectObservable(labels(run$), '^--!').toBe('sa-', { s: 'S1', a: 'A' });
      expectSubscriptions(turn.subscriptions).toBe('^--!');
    });
  });

  it('aborting the signal ends the run with its reason and unsubscribes the model', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = cold('-a--b-(c|)', values);
      const controller = new AbortController();
      scheduler.schedule(() => controller.abort(Object.assign(new Error('stop'), { code: 'aborted' })), 2);
      const run$ = agentWith(coldModel([turn])).run('hi', { signal: controller.signal });
      expectObservable(labels(run$)).toBe('sa(e|)', { s: 'S1', a: 'A', e: 'E:aborted:' });
      expectSubscriptions(turn.subscriptions).toBe('^-!');
    });
  });

  it('a step past maxSteps fails with MaxStepsError before its tools run', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const turn = cold('-t-(c|)', calls(call('call_1')));
      const run$ = agentWith(coldModel([turn]), { maxSteps: 1 }).run('hi');
      expectObservable(labels(run$)).toBe('st-(de|)', {
        s: 'S1',
        t: 'tool-calls-ready',
        d: 'C1',
        e: 'E:max_steps:steps',
      });
    });
  });

  it('maxToolCalls ends the run before the step runs any tool', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const three = cold('-t-(c|)', calls(call('1', 'A'), call('2', 'B'), call('3', 'C')));
      const run$ = agentWith(coldModel([three]), { maxToolCalls: 2 }).run('hi');
      expectObservable(labels(run$)).toBe('st-(de|)', {
        s: 'S1',
        t: 'tool-calls-ready',
        d: 'C1',
        e: 'E:budget_exceeded:tool-calls',
      });
    });
  });

  it('with scriptedModel in virtual time: deltas as the model emits them, a restart streams the turn again', () => {
    scheduler.run(({ expectObservable }) => {
      const model = scriptedModel([{ text: ['A', 'B'] }], { delayMs: 2, scheduler });
      expectObservable(labels(agentWith(model).run('hi'))).toBe('s-a-b-(dz|)', {
        s: 'S1',
        a: 'A',
        b: 'B',
        d: 'C1',
        z: 'Z:AB',
      });
      const flaky = scriptedModel([{ text: ['A'], error: new NetworkError('reset') }, { text: ['A', 'B'] }], {
        delayMs: 5,
        scheduler,
      });
      expectObservable(labels(agentWith(flaky).run('hi'))).toBe('s----(ar)-a----b----(dz|)', {
        s: 'S1',
        a: 'A',
        r: 'R1',
        b: 'B',
        d: 'C1',
        z: 'Z:AB',
      });
    });
  });
});
