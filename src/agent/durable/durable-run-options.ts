import type { RunOptions } from '../agent-options.ts';
import type { DurableRunJob } from './durable-run-job.ts';

/** The `RunOptions` of a job's run: its session, actor and serialisable options. */
export function durableRunOptions(job: DurableRunJob): RunOptions {
  const options = job.options ?? {};
  return {
    sessionId: job.sessionId,
    ...(job.actor ? { actor: job.actor } : {}),
    ...(options.system === undefined ? {} : { system: options.system }),
    ...(options.toolChoice === undefined ? {} : { toolChoice: options.toolChoice }),
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
    ...(options.maxCostUsd === undefined ? {} : { maxCostUsd: options.maxCostUsd }),
    ...(options.onLimit === undefined ? {} : { onLimit: options.onLimit }),
  };
}
