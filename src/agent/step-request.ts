import type { ChatModel, ChatRequest } from '../core/index.ts';
import { contextView, viewMessages } from './context-summary.ts';
import type { StepEnv } from './step-env.ts';
import { runSnapshot } from './run-snapshot.ts';
import type { RunState } from './run-state.ts';

/** One step's model and request, the run's controls and `prepareStep`'s overrides applied. */
export interface StepPlan {
  model: ChatModel;
  request: ChatRequest;
  /** The tools the step offers, when `prepareStep` narrowed them: calls of others are `not_found`. */
  allowed: readonly string[] | undefined;
}

/**
 * The model and request of the step `state` is about to run: the history (from its newest summary
 * on) and the run's messages,
 * the system prompt (`prepareStep` > the run's `system` > the agent's), the tools offered (all, or
 * `prepareStep`'s `activeTools`), the tool choice (the run's for the first step, then `'auto'`),
 * the agent's settings with `prepareStep`'s over them, and the run's `output` as `responseFormat`.
 */
export function stepPlan(env: StepEnv, state: RunState): StepPlan {
  const { controls } = env;
  const overrides = controls.prepareStep?.(runSnapshot(state, state.step)) ?? {};
  const { model, activeTools, system: stepSystem, toolChoice: stepChoice, ...settings } = overrides;
  const offered = env.toolSpecs() ?? [];
  const tools = activeTools ? offered.filter((tool) => activeTools.includes(tool.name)) : offered;
  const system = stepSystem ?? controls.system ?? env.system;
  const runChoice = controls.toolChoice === undefined || state.step === 1 ? controls.toolChoice : 'auto';
  const messages = viewMessages(contextView(state.history, state.prelude), state.added);
  // No tool left, in a conversation with tool calls: Bedrock (and Anthropic) refuse tool blocks
  // without tool definitions, so the tools go with `toolChoice: 'none'` (calls are `not_found`).
  const noneLeft =
    tools.length === 0 &&
    offered.length > 0 &&
    messages.some((m) => m.role === 'tool' || (m.toolCalls?.length ?? 0) > 0);
  const sentTools = noneLeft ? offered : tools;
  const toolChoice = noneLeft ? 'none' : (stepChoice ?? runChoice);
  return {
    model: model ?? env.model,
    allowed: activeTools ? tools.map((tool) => tool.name) : undefined,
    request: {
      messages,
      ...(system === undefined ? {} : { system }),
      ...(sentTools.length > 0 ? { tools: sentTools } : {}),
      ...(toolChoice === undefined ? {} : { toolChoice }),
      ...env.settings,
      ...settings,
      ...(controls.responseFormat ? { responseFormat: controls.responseFormat } : {}),
    },
  };
}
