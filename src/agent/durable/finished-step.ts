import type { Message } from '../../core/index.ts';
import { toolMessageOf } from '../tool-message.ts';
import type { RunCheckpoint } from './run-checkpoint.ts';

/**
 * The messages of the checkpoint's step when it is finished (its turn recorded and every call
 * answered) but not yet in the session's messages: the assistant turn and its results in call
 * order. Empty for a step still in flight.
 */
export function finishedStep(checkpoint: RunCheckpoint): Message[] {
  const { turn, outcomes } = checkpoint;
  if (!turn) return [];
  const answers = turn.toolCalls.map((call) => outcomes[call.id]);
  if (answers.some((outcome) => outcome === undefined)) return [];
  return [turn.message, ...answers.map((outcome) => toolMessageOf(outcome!))];
}
