import type { ToolRegistry } from '../../tools/index.ts';
import type { Actor } from '../../security/index.ts';
import type { AgentEvent } from '../agent-event.ts';
import type { StepCheckpoints } from '../step-checkpoints.ts';
import type { RunCheckpoint } from './run-checkpoint.ts';

/**
 * A step picked up after its turn was recorded: tells the turn's `step-completed`, the last
 * outcome's `tool-result` or a park's `approval-requested` when `told` (what the previous attempt
 * told after its last checkpoint; `undefined` when unknown, and then nothing is told twice) lacks
 * it; then settles each call in doubt (started, no outcome) whose tool is not `idempotent` as
 * `interrupted`, through the registry (so the audit records it), recorded before it is told.
 * Calls of idempotent tools stay unanswered: the step runs them again.
 */
export async function resumeTurn(
  registry: ToolRegistry,
  actor: Actor | undefined,
  checkpoint: RunCheckpoint,
  told: readonly AgentEvent[] | undefined,
  hooks: StepCheckpoints,
  emit: (event: AgentEvent) => void,
): Promise<void> {
  const { turn, last, outcomes } = checkpoint;
  if (!turn) return;
  const { step } = checkpoint.state;
  const lacks = (report: (e: AgentEvent) => boolean) => told !== undefined && !told.some(report);
  const callOf = (id: string) => turn.toolCalls.find((call) => call.id === id);
  if (last.type === 'turn' && lacks((e) => e.type === 'step-completed' && e.step === step))
    emit({ type: 'step-completed', step, response: turn });
  if (
    last.type === 'outcome' &&
    lacks((e) => e.type === 'tool-result' && e.toolCall.id === last.toolCallId)
  ) {
    const call = callOf(last.toolCallId);
    const outcome = outcomes[last.toolCallId];
    if (call && outcome) emit({ type: 'tool-result', step, toolCall: call, outcome });
  }
  if (last.type === 'parked')
    for (const p of checkpoint.pending)
      if (lacks((e) => e.type === 'approval-requested' && e.toolCall.id === p.toolCallId))
        emit({ type: 'approval-requested', step: p.step, toolCall: p.toolCall });
  for (const id of checkpoint.started) {
    const call = callOf(id);
    if (!call || outcomes[id] || registry.get(call.name)?.idempotent === true) continue;
    const outcome = await registry.recordInterrupted(call, actor ? { actor } : {});
    await hooks.outcome(call, outcome);
    emit({ type: 'tool-result', step, toolCall: call, outcome });
  }
}
