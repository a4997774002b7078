import type { UIMessageChunk } from './ui-message-chunk.ts';

/** A tool call whose input is streaming (tool-call deltas), by its index in the step. */
export interface StreamingInput {
  id: string | undefined;
  name: string | undefined;
  /** Input text received before the call's id and name were known. */
  held: string;
  started: boolean;
}

/** What the mapping remembers between events of one run. */
export interface UIChunkState {
  step: number | undefined;
  text: string | undefined;
  reasoning: string | undefined;
  parts: number;
  inputs: Map<number, StreamingInput>;
  /** Approval ids of the calls that asked for one and have no outcome yet. */
  pending: Map<string, string>;
  /** Approval ids of every call that asked for one. */
  approvals: Map<string, string>;
  completed: boolean;
}

/** The state before the first event. */
export function initialUIChunkState(): UIChunkState {
  return {
    step: undefined,
    text: undefined,
    reasoning: undefined,
    parts: 0,
    inputs: new Map(),
    pending: new Map(),
    approvals: new Map(),
    completed: false,
  };
}

/** Closes the open text and reasoning parts. */
export function closeParts(state: UIChunkState): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [];
  if (state.reasoning !== undefined) chunks.push({ type: 'reasoning-end', id: state.reasoning });
  if (state.text !== undefined) chunks.push({ type: 'text-end', id: state.text });
  state.reasoning = undefined;
  state.text = undefined;
  return chunks;
}

/** Closes the open parts and the step. */
export function closeStep(state: UIChunkState): UIMessageChunk[] {
  const chunks = closeParts(state);
  if (state.step !== undefined) chunks.push({ type: 'finish-step' });
  state.step = undefined;
  return chunks;
}
