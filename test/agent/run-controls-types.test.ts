import type { Observable } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  type AgentFinishReason,
  type AgentResult,
  eachEvent,
  type RunSnapshot,
  type StepOverrides,
  textDeltas,
  type ToolChoice,
} from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

const agent = new Agent({ model: scriptedModel([]) });
const Answer = z.object({ city: z.string(), tempC: z.number() });

describe('run controls, typed end to end', () => {
  it("result.object has the output schema's type; without output it is unknown", () => {
    expectTypeOf(() => agent.chat('x', { output: Answer })).returns.resolves.toEqualTypeOf<
      AgentResult<{ city: string; tempC: number }>
    >();
    expectTypeOf(() => agent.chat('x', { output: Answer }))
      .returns.resolves.toHaveProperty('object')
      .toEqualTypeOf<{ city: string; tempC: number } | undefined>();
    expectTypeOf(() =>
      agent.chat('x', { output: { type: 'object' } }),
    ).returns.resolves.toEqualTypeOf<AgentResult>();
    expectTypeOf(() => agent.chat('x')).returns.resolves.toEqualTypeOf<AgentResult>();
    expectTypeOf(agent.run('x', { output: Answer })).toEqualTypeOf<
      Observable<AgentEvent<{ city: string; tempC: number }>>
    >();
  });

  it('system, toolChoice, stopWhen, prepareStep and the limits are typed options', () => {
    expectTypeOf(agent.chat).parameter(1).toExtend<
      | {
          system?: string;
          toolChoice?: ToolChoice;
          stopWhen?: (s: RunSnapshot) => boolean;
          prepareStep?: (s: RunSnapshot) => StepOverrides | undefined;
          maxSteps?: number;
          maxCostUsd?: number;
          onLimit?: 'error' | 'stop';
        }
      | undefined
    >();
    expectTypeOf<AgentResult['finishReason']>().toEqualTypeOf<AgentFinishReason>();
    expectTypeOf<'max-steps' | 'budget'>().toExtend<AgentFinishReason>();
    // @ts-expect-error a tool choice is 'auto' | 'none' | 'required' | { name }
    expectTypeOf(() => agent.chat('x', { toolChoice: 'sometimes' })).toBeFunction();
  });

  it('textDeltas gives strings; eachEvent an async iterable of the run events', () => {
    expectTypeOf(agent.run('x').pipe(textDeltas())).toEqualTypeOf<Observable<string>>();
    expectTypeOf(eachEvent(agent.run('x'))).toEqualTypeOf<AsyncIterable<AgentEvent>>();
  });
});
