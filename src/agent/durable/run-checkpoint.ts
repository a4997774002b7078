import type { ChatResponse, Message } from '../../core/index.ts';
import type { RunDecision } from '../../http/runs.ts';
import type { ToolOutcome } from '../../tools/index.ts';
import type { AgentResult } from '../agent-event.ts';
import type { PendingApproval } from './durable-run-end.ts';

/** The session metadata key holding a durable run's checkpoint; the run's final append removes it. */
export const RUN_KEY = 'rxagent.run';

/** The session metadata key naming the last durable run that ended on the session, and how. */
export const LAST_RUN_KEY = 'rxagent.lastRun';

/**
 * How the last durable run on a session ended (`rxagent.lastRun`), so an attempt at a run that
 * already ended (a job delivered again after its worker died at the very end) ends the same way.
 */
export interface EndedRun {
  runId: string;
  end: 'completed' | 'failed' | 'cancelled';
  /** ISO 8601. */
  at: string;
  /** A completed run's result, less its messages: the session's `count` messages after `base`. */
  result?: Omit<AgentResult, 'messages'>;
  base?: number;
  count?: number;
  /** A failed run's error. */
  error?: { name: string; code?: string; message: string };
}

/** The run before its step in flight, less what the session's messages hold. */
export interface CheckpointState {
  /** The step in flight (1-based). */
  step: number;
  /** The finished steps' responses (usage, cost and budgets count them). */
  steps: ChatResponse[];
  /** Model calls besides the steps (context summaries). */
  overhead: ChatResponse[];
  /** Summaries made in this run, appended with the run's final append. */
  prelude: Message[];
  toolCalls: number;
  invalidStreak: number;
  repeat: { key: string; count: number } | undefined;
}

/** What the checkpoint's last write recorded, so a resume can tell its event if it was never told. */
export type CheckpointItem =
  | { type: 'start' }
  | { type: 'turn' }
  | { type: 'started'; toolCallId: string }
  | { type: 'outcome'; toolCallId: string }
  | { type: 'parked' }
  | { type: 'decision'; toolCallId: string };

/**
 * A durable run's bookkeeping, in its session's metadata under `rxagent.run`. The session's
 * messages hold the run's input and finished steps (those after `base`); this holds the step in
 * flight: its recorded turn, the outcomes of its calls so far, the calls whose `execute` began,
 * decisions and pending approvals.
 */
export interface RunCheckpoint {
  runId: string;
  /** How many of the session's messages came before the run. */
  base: number;
  state: CheckpointState;
  /** The step's model turn, once recorded (its calls are the step's). */
  turn?: ChatResponse;
  /** Outcomes of the turn's calls recorded so far, by call id (without `result` and `error.cause`). */
  outcomes: Record<string, ToolOutcome>;
  /** Calls whose `execute` was about to run and that have no outcome yet: in doubt after a crash. */
  started: string[];
  /** Decisions recorded for calls that need approval, by call id. */
  decisions: Record<string, RunDecision>;
  /** Calls the run is parked on. */
  pending: PendingApproval[];
  /** How many events the run had when the last item was recorded. */
  seq: number;
  last: CheckpointItem;
  /** Attempts that claimed the run (each one a fenced write). */
  attempt: number;
  /**
   * Claims in a row with nothing recorded between them: `version` is the session's version right
   * after the last claim (`maxIdleAttempts` bounds `count`).
   */
  idle?: { version: number; count: number };
  /** The attempt that owns the run now (a random id written by its claim). */
  owner?: string;
}
