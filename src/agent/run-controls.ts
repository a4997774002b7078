import type {
  ChatModel,
  ChatResponse,
  ChatRequest,
  FinishReason,
  JsonSchema,
  Message,
  StandardSchemaV1,
  ToolChoice,
  Usage,
} from '../core/index.ts';
import type { AgentModelSettings } from './agent-model-settings.ts';

/** The schema of a run's structured final answer: a Standard Schema validator or a JSON Schema. */
export type AgentOutput = StandardSchemaV1 | JsonSchema;

/**
 * The type of `AgentResult.object` for a run's `output`: a Standard Schema's output type; `unknown`
 * for a JSON Schema, and without `output` (where `object` is absent).
 */
export type OutputOf<S> = [S] extends [undefined]
  ? unknown
  : S extends StandardSchemaV1<unknown, infer O>
    ? O
    : unknown;

/** How a finished run ended: the last turn's reason, or the limit that ended it (`onLimit: 'stop'`). */
export type AgentFinishReason = FinishReason | 'max-steps' | 'budget';

/** A run between two steps, as `stopWhen` and `prepareStep` see it (plain data, nothing live). */
export interface RunSnapshot {
  /** The step about to run (`prepareStep`) or the step just finished (`stopWhen`), 1-based. */
  readonly step: number;
  /** The run's messages so far: its input, then each finished step with its tool results. */
  readonly messages: readonly Message[];
  /** The session's messages before the run. */
  readonly history: readonly Message[];
  readonly steps: readonly ChatResponse[];
  readonly toolCalls: number;
  /** Summed over the finished steps. */
  readonly usage: Usage;
  /** Summed over the finished steps whose cost is known. */
  readonly costUsd: number;
}

/** What `prepareStep` may change for one step; anything left out keeps the run's value. */
export interface StepOverrides extends AgentModelSettings {
  model?: ChatModel;
  /** The names of the tools offered this step (a subset of the agent's). */
  activeTools?: readonly string[];
  system?: string;
  toolChoice?: ToolChoice;
}

/**
 * The options of one run that steer it (`agent.run(input, options)`); each overrides the agent's
 * own for this run only.
 */
export interface RunControls<S extends AgentOutput | undefined = AgentOutput | undefined> {
  /** This run's system prompt, in place of the agent's `system`; sent, never stored in the session. */
  system?: string;
  /** The tool choice of the first step; later steps use `'auto'` (or what `prepareStep` says). */
  toolChoice?: ToolChoice;
  /** The final answer is JSON matching this schema, parsed and validated into `AgentResult.object`. */
  output?: S;
  /** Checked after each step (its tools included): `true` ends the run gracefully. */
  stopWhen?: (snapshot: RunSnapshot) => boolean;
  /** Called before each step: the model, tools, system prompt and settings of that step. */
  prepareStep?: (snapshot: RunSnapshot) => StepOverrides | undefined;
  /** Model turns in this run, over the agent's `maxSteps`. */
  maxSteps?: number;
  /** Ends the run once its summed cost reaches this many US dollars (checked between steps). */
  maxCostUsd?: number;
  /**
   * What a budget or `maxSteps` does: `'error'` fails with `BudgetExceededError`; `'stop'` ends the
   * run with its finished steps and `finishReason` `'max-steps'` or `'budget'`. With `'stop'`, a
   * last step that asks for tools runs them before the run ends.
   * @default 'error'
   */
  onLimit?: 'error' | 'stop';
}

/** A run's controls, checked, with the request parts they produce. */
export interface ResolvedControls {
  system: string | undefined;
  toolChoice: ToolChoice | undefined;
  responseFormat: ChatRequest['responseFormat'];
  stopWhen: ((snapshot: RunSnapshot) => boolean) | undefined;
  prepareStep: ((snapshot: RunSnapshot) => StepOverrides | undefined) | undefined;
  maxCostUsd: number;
  onLimit: 'error' | 'stop';
}
