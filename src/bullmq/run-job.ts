import type { DurableRunJob } from '../agent/durable/index.ts';
import { InvalidRequestError } from '../core/index.ts';
import { assertMessageShape } from '../sessions/message-shape.ts';
import { parseTagged, stringifyTagged } from '../sessions/tagged-json.ts';

/**
 * What a BullMQ job of a durable run carries: the `DurableRunJob` as tagged JSON text, so bytes in
 * its input (an image, a file) come back as bytes.
 */
export interface RunJobData {
  run: string;
}

/** The job data of a run. */
export function runJobData(run: DurableRunJob): RunJobData {
  return { run: stringifyTagged(run) };
}

/**
 * The run a job carries, checked (a job written by something else is refused, not run).
 * @throws InvalidRequestError
 */
export function runOfJob(data: unknown): DurableRunJob {
  const text = typeof data === 'object' && data !== null ? Reflect.get(data, 'run') : undefined;
  if (typeof text !== 'string') throw new InvalidRequestError('rxagent/bullmq: not a job of a durable run');
  const run = parseTagged(text) as Partial<DurableRunJob>;
  if (
    typeof run.runId !== 'string' ||
    typeof run.agent !== 'string' ||
    typeof run.sessionId !== 'string' ||
    !Array.isArray(run.input)
  )
    throw new InvalidRequestError('rxagent/bullmq: not a job of a durable run');
  run.input.forEach(assertMessageShape);
  return run as DurableRunJob;
}
