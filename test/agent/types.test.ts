import { type Observable, of } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import {
  Agent,
  type AgentBudget,
  type AgentEvent,
  type AgentExtension,
  type AgentResult,
  type ApprovalRequest,
  type Approver,
  type BudgetExceededError,
  type MaxStepsError,
  type Message,
  type ToolOutcome,
} from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';

describe('agent public types', () => {
  it('run is an Observable of AgentEvent, chat a Promise of AgentResult', () => {
    const agent = new Agent({ model: scriptedModel([]) });
    expectTypeOf(agent.run('x')).toEqualTypeOf<Observable<AgentEvent>>();
    expectTypeOf(agent.chat).returns.resolves.toEqualTypeOf<AgentResult>();
    expectTypeOf(agent.invokeTool).returns.resolves.toEqualTypeOf<ToolOutcome>();
    expectTypeOf(agent.use).returns.toEqualTypeOf<Agent>();
    expectTypeOf(Agent.builder().model(scriptedModel([])).build()).toEqualTypeOf<Agent>();
  });

  it('an approver answers with a boolean, a Promise or an Observable', () => {
    expectTypeOf<() => boolean>().toExtend<Approver>();
    expectTypeOf<() => Promise<boolean>>().toExtend<Approver>();
    expectTypeOf(() => of(true)).toExtend<Approver>();
    expectTypeOf<ApprovalRequest>().toHaveProperty('step').toEqualTypeOf<number>();
    expectTypeOf<ApprovalRequest>().toHaveProperty('signal').toEqualTypeOf<AbortSignal>();
  });

  it('an extension lists tools as an array or a function; budgets errors carry messages', () => {
    expectTypeOf<{ name: 'hub'; tools: () => [] }>().toExtend<AgentExtension>();
    expectTypeOf<BudgetExceededError['budget']>().toEqualTypeOf<AgentBudget>();
    expectTypeOf<BudgetExceededError['messages']>().toEqualTypeOf<readonly Message[]>();
    expectTypeOf<MaxStepsError>().toExtend<BudgetExceededError>();
  });
});
