export { cancelDurableRun } from './cancel-durable-run.ts';
export { driveDurableRun, type DurableRunEnv } from './drive-durable-run.ts';
export type { DurableRunEnd, PendingApproval } from './durable-run-end.ts';
export type { DurableRunJob, DurableRunOptions } from './durable-run-job.ts';
export { readCheckpoint } from './read-checkpoint.ts';
export { recordDecision } from './record-decision.ts';
export {
  type CheckpointItem,
  type CheckpointState,
  type EndedRun,
  LAST_RUN_KEY,
  RUN_KEY,
  type RunCheckpoint,
} from './run-checkpoint.ts';
