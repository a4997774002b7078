import type { Observable } from 'rxjs';
import type { ChatModel, Message, ToolCall } from '../core/index.ts';
import type { Actor } from '../security/index.ts';
import type { SessionStore } from '../sessions/index.ts';
import type { AnyTool, ToolRegistry } from '../tools/index.ts';
import type { AgentLogger } from './agent-logger.ts';
import type { AgentModelSettings } from './agent-model-settings.ts';
import type { AgentTracer } from './agent-tracer.ts';
import type { ContextOptions } from './context-options.ts';
import type { ResponseCache } from './response-cache.ts';
import type { AgentOutput, RunControls } from './run-controls.ts';

/** What an approver is asked: one tool call that needs a person's decision. */
export interface ApprovalRequest {
  /** The step (1-based) whose model turn asked for the call; 0 for `agent.invokeTool`. */
  step: number;
  toolCall: ToolCall;
  actor?: Actor;
  sessionId?: string;
  /** Aborted when the run is cancelled or the approval times out: stop asking. */
  signal: AbortSignal;
}

/** Decides an approval: `true` runs the call; `false`, no answer or an error rejects it. */
export type Approver = (request: ApprovalRequest) => boolean | PromiseLike<boolean> | Observable<boolean>;

/** The options of `new Agent(...)`. Every budget has a default. */
export interface AgentOptions extends AgentModelSettings {
  model: ChatModel;
  /** Names the agent in traces (`gen_ai.agent.name`) and logs. */
  name?: string;
  /** A registry (its policy, audit and limits apply) or plain tools (a fresh registry holds them). */
  tools?: ToolRegistry | readonly AnyTool[];
  system?: string;
  /** Model turns per run; a run that needs one more fails with `MaxStepsError`. @default 10 */
  maxSteps?: number;
  /** Tool calls per run. @default Infinity */
  maxToolCalls?: number;
  /** Invalid tool calls in a row (bad arguments, unknown tool). @default 3 */
  maxInvalidToolCalls?: number;
  /** Calls of one tool with the same arguments in a row. @default 3 */
  maxRepeatedToolCalls?: number;
  /** Calls of one step running at once. @default 4 */
  toolConcurrency?: number;
  /** Times a step that fails after partial output is streamed again. @default 1 */
  stepRetries?: number;
  sessions?: SessionStore;
  responseCache?: ResponseCache;
  /** Time-to-live of response-cache entries. @default no expiry */
  responseCacheTtlMs?: number;
  logger?: AgentLogger;
  tracer?: AgentTracer;
  /** The default approver (a run's own `approve` wins). */
  approve?: Approver;
  /**
   * A pending approval is rejected after this long (the model is told no one answered in time), so
   * a person who never answers cannot hold the session. @default 300_000 (5 minutes)
   */
  approvalTimeoutMs?: number;
  /**
   * How long a run waits for earlier runs on the same session in this process before failing with
   * `SessionBusyError`. @default 600_000 (10 minutes)
   */
  sessionWaitMs?: number;
  /** When a run fails, still append its whole finished steps to the session. @default true */
  persistPartialRuns?: boolean;
  /** What to send when the history would not fit the model's context window. @default send it all */
  context?: ContextOptions;
  /**
   * A session written by someone else during the run: `'rebase'` appends the run after their
   * messages (one append, it cannot conflict); `'error'` fails with `SessionConflictError` and
   * stores nothing of the run. @default 'rebase'
   */
  onConflict?: 'error' | 'rebase';
}

/**
 * The options of `agent.run` and `agent.chat`: who and where, plus the controls of this run
 * (`system`, `toolChoice`, `output`, `stopWhen`, `prepareStep`, budgets, `onLimit`).
 */
export interface RunOptions<
  S extends AgentOutput | undefined = AgentOutput | undefined,
> extends RunControls<S> {
  /** The session to continue and append to (needs the agent's `sessions`). */
  sessionId?: string;
  /** Who asks: reaches the tools' policy, `authorize`, `execute` and audit. */
  actor?: Actor;
  /** Aborting cancels the run like unsubscribing; `chat` rejects with the signal's reason. */
  signal?: AbortSignal;
  approve?: Approver;
  /** Merged (shallowly) into the session's metadata when the run is appended (a title, a channel …). */
  metadata?: Record<string, unknown>;
}

/** The options of `agent.invokeTool`. */
export interface InvokeToolOptions {
  actor?: Actor;
  signal?: AbortSignal;
  approve?: Approver;
}

/** What a run takes as input: a user message's text, a message, or several messages. */
export type AgentInput = string | Message | readonly Message[];

export type { AgentModelSettings } from './agent-model-settings.ts';
