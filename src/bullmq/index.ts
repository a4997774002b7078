export {
  type DurableRuns,
  type DurableRunsOptions,
  type DurableStartOptions,
  durableRuns,
} from './durable-runs.ts';
export type { DurableWorker } from './durable-worker.ts';
