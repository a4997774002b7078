import type { ChatRequest, Message } from '../../core/index.ts';
import type { Actor } from '../../security/index.ts';

/** The serialisable part of `RunOptions`: what a queue can keep for a run. */
export interface DurableRunOptions {
  /** This run's system prompt (not stored in the session). */
  system?: string;
  /** For the first step; later steps `'auto'`. */
  toolChoice?: ChatRequest['toolChoice'];
  maxSteps?: number;
  maxCostUsd?: number;
  /** A budget or `maxSteps`: fail (default) or end with finish reason `'max-steps'` / `'budget'`. */
  onLimit?: 'error' | 'stop';
  /** Merged (shallowly) into the session's metadata by the run's final append. */
  metadata?: Record<string, unknown>;
}

/** What a queue keeps for one run: plain JSON, nothing else (no functions, no class instances). */
export interface DurableRunJob {
  runId: string;
  /** The name workers know the agent by (`work({ support: agent })`). */
  agent: string;
  /** The session that holds the run's checkpoints (required: a durable run always has one). */
  sessionId: string;
  /** Plain data: `{ id, roles?, ... }` as `Actor` is. */
  actor?: Actor;
  /** The run's input; ignored once the run has a checkpoint. */
  input: Message[];
  /** The serialisable part of `RunOptions`. */
  options?: DurableRunOptions;
}
