import type { ChatModel, ChatRequest } from '../core/index.ts';
import type { AgentModelSettings } from './agent-model-settings.ts';
import type { ContextOptions } from './context-options.ts';
import type { ResponseCache } from './response-cache.ts';
import type { ResolvedControls } from './run-controls.ts';
import type { Budgets } from './step-budgets.ts';
import type { ToolsEnv } from './step-tools.ts';

/** What a step needs from the agent and the run. */
export interface StepEnv extends ToolsEnv {
  model: ChatModel;
  system: string | undefined;
  settings: AgentModelSettings;
  /** The tools to offer, read at the start of each step (extensions' lists are live). */
  toolSpecs: () => ChatRequest['tools'];
  budgets: Budgets;
  stepRetries: number;
  cache: { store: ResponseCache; ttlMs: number | undefined } | undefined;
  /** The run's own controls (system, tool choice, output, stopWhen, prepareStep, limits). */
  controls: ResolvedControls;
  /** What to send when the history would not fit the model's window. */
  context: ContextOptions | undefined;
}
