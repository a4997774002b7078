import type { ChatResponse, Message, RxAgentError, StreamEvent, ToolCall } from '../core/index.ts';
import type { Cost, Usage } from '../core/index.ts';
import type { ToolOutcome } from '../tools/index.ts';
import type { AgentFinishReason } from './run-controls.ts';

/** What a finished run produced; `OBJECT` is the type of its structured answer (`output`). */
export interface AgentResult<OBJECT = unknown> {
  /** The final step's text. */
  text: string;
  /** The messages this run added (user input, assistant turns, tool results), in order. */
  messages: Message[];
  /** One response per model turn. */
  steps: ChatResponse[];
  /** Summed over the steps. */
  usage: Usage;
  /** Summed over the steps, when every step's cost is known. */
  cost?: Cost;
  /** The final answer parsed and validated against the run's `output` (absent without one). */
  object?: OBJECT;
  /** The last turn's reason, or `'max-steps'` / `'budget'` when a limit ended the run (`onLimit: 'stop'`). */
  finishReason: AgentFinishReason;
  sessionId?: string;
}

/** A model turn began. */
export interface StepStarted {
  type: 'step-started';
  step: number;
}
/** The step failed after partial output and is streamed again: drop its partial text. */
export interface StepRestarted {
  type: 'step-restarted';
  step: number;
  error: RxAgentError;
}
/** A tool call waits for a person's decision. */
export interface ApprovalRequested {
  type: 'approval-requested';
  step: number;
  toolCall: ToolCall;
}
/** A tool call of the step ended. */
export interface ToolResult {
  type: 'tool-result';
  step: number;
  toolCall: ToolCall;
  outcome: ToolOutcome;
}
/** A model turn ended (its tools, if any, run next). */
export interface StepCompleted {
  type: 'step-completed';
  step: number;
  response: ChatResponse;
}
/** The run ended; the last event of every successful run. */
export interface AgentCompleted<OBJECT = unknown> {
  type: 'agent-completed';
  result: AgentResult<OBJECT>;
}

/** Everything `agent.run` emits: the model's stream events plus the loop's own. */
export type AgentEvent<OBJECT = unknown> =
  | StreamEvent
  | StepStarted
  | StepRestarted
  | ApprovalRequested
  | ToolResult
  | StepCompleted
  | AgentCompleted<OBJECT>;
