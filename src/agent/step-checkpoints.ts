import type { ChatResponse, ToolCall } from '../core/index.ts';
import type { ApprovalDecision, ToolOutcome } from '../tools/index.ts';
import type { RunState } from './run-state.ts';

/**
 * What a durable run (`driveDurableRun`) hooks into the step loop; without it the loop runs as it
 * does in process, at no cost. Each write is awaited before the event that reports it, and a write
 * that fails (a version conflict: another worker owns the run) errors the loop.
 */
export interface StepCheckpoints {
  /** A step's model turn ended (`state`: the run before the step). Awaited before `step-completed`. */
  turn(state: RunState, response: ChatResponse): Promise<void>;
  /** Just before a call's `execute`, every check passed: its fenced `started` marker. */
  started(call: ToolCall): Promise<void>;
  /** A call's outcome. Awaited before its `tool-result`. */
  outcome(call: ToolCall, outcome: ToolOutcome): Promise<void>;
  /**
   * The decision recorded for a call that needs approval, or `undefined`: the call parks (no
   * outcome, no event) and the step ends `parked` once its other calls settled.
   */
  decision(call: ToolCall): ApprovalDecision | undefined;
}
