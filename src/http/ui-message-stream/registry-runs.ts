import { RxAgentError } from '../../core/index.ts';
import type { RunRegistry } from '../run-registry.ts';
import type { Runs, RunStatus } from '../runs.ts';

/**
 * A `RunRegistry` seen through the `Runs` interface (Promises; a decision for a call that waits
 * for none rejects with code `approval_not_pending`).
 */
export function registryRuns(registry: RunRegistry): Runs {
  return {
    attach: (runId, options = {}) =>
      registry.attach(runId, options.lastEventId === undefined ? {} : { lastEventId: options.lastEventId }),
    decide: async (runId, toolCallId, decision) => {
      if (!registry.decide(runId, toolCallId, decision.approved))
        throw new RxAgentError(
          `Tool call ${toolCallId} of run ${runId} is not waiting for a decision`,
          'approval_not_pending',
        );
    },
    cancel: async (runId) => registry.cancel(runId),
    status: async (runId): Promise<RunStatus | null> => {
      const status = registry.status(runId);
      if (status === undefined) return null;
      return status === 'running' && registry.approvals(runId).length > 0 ? 'awaiting-approval' : status;
    },
  };
}
