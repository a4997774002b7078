import type { Session } from '../../sessions/index.ts';
import type { AgentEvent } from '../agent-event.ts';
import type { DurableRunEnd } from './durable-run-end.ts';
import { type EndedRun, LAST_RUN_KEY } from './run-checkpoint.ts';

/** The session's record of the run `runId` having ended, if it has. */
export function endedRun(session: Session | null, runId: string): EndedRun | undefined {
  const ended = session?.metadata[LAST_RUN_KEY] as EndedRun | undefined;
  return typeof ended === 'object' && ended !== null && ended.runId === runId ? ended : undefined;
}

/**
 * How an attempt at a run that already ended ends: as the run did (its worker died after the
 * final append, before the queue heard). A completed run's `agent-completed` is told when the
 * run's last event (`last`) is not it; the result's messages are read back from the session.
 */
export function endAgain(
  session: Session,
  ended: EndedRun,
  last: AgentEvent | undefined,
  emit: (event: AgentEvent) => void,
): DurableRunEnd {
  if (ended.end === 'cancelled') return { type: 'cancelled' };
  if (ended.end === 'failed')
    return { type: 'failed', error: ended.error ?? { name: 'Error', message: 'The run failed' } };
  if (!ended.result || ended.base === undefined || ended.count === undefined) return { type: 'superseded' };
  const messages = session.messages.slice(ended.base, ended.base + ended.count);
  const result = { ...ended.result, messages };
  if (last?.type !== 'agent-completed') emit({ type: 'agent-completed', result });
  return { type: 'completed', result };
}
