export type {
  AgentCompleted,
  AgentEvent,
  AgentResult,
  ApprovalRequested,
  StepCompleted,
  StepRestarted,
  StepStarted,
  ToolResult,
} from './agent-event.ts';
export { Agent, type AgentConfig } from './agent.ts';
export { AgentBuilder } from './agent-builder.ts';
export type { AgentExtension } from './agent-extension.ts';
export type { AgentLogger } from './agent-logger.ts';
export type {
  AgentInput,
  AgentModelSettings,
  AgentOptions,
  ApprovalRequest,
  Approver,
  InvokeToolOptions,
  RunOptions,
} from './agent-options.ts';
export type { AgentTracer } from './agent-tracer.ts';
export { type MemoryResponseCacheOptions, memoryResponseCache } from './memory-response-cache.ts';
export type { ResponseCache } from './response-cache.ts';
export type {
  AgentFinishReason,
  AgentOutput,
  OutputOf,
  RunControls,
  RunSnapshot,
  StepOverrides,
} from './run-controls.ts';
export type { ContextBudget, ContextOptions, ContextStrategy } from './context-options.ts';
export { eachEvent } from './each-event.ts';
export { textDeltas } from './text-deltas.ts';
export {
  cancelDurableRun,
  type CheckpointItem,
  type CheckpointState,
  type EndedRun,
  type DurableRunEnd,
  type DurableRunEnv,
  type DurableRunJob,
  type DurableRunOptions,
  driveDurableRun,
  LAST_RUN_KEY,
  type PendingApproval,
  readCheckpoint,
  recordDecision,
  RUN_KEY,
  type RunCheckpoint,
} from './durable/index.ts';
