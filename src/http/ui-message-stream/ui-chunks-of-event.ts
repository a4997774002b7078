import type { AgentEvent } from '../../agent/agent-event.ts';
import type { ToolCall } from '../../core/index.ts';
import type { ToolOutcome } from '../../tools/index.ts';
import type { UIFinishReason, UIMessageChunk } from './ui-message-chunk.ts';

/** A tool call whose input is streaming (tool-call deltas), by its index in the step. */
interface StreamingInput {
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

/** How tool parts are shaped. */
export interface UIChunkSettings {
  /** Mark tool parts `dynamic` (`dynamic-tool` parts on the page instead of `tool-<name>`). */
  dynamic: boolean;
  /** The approval id the page answers for a tool call. */
  approvalId: (toolCall: ToolCall) => string;
}

const FINISH_REASONS: ReadonlySet<string> = new Set<UIFinishReason>([
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'other',
]);

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

function partId(state: UIChunkState, kind: string): string {
  state.parts += 1;
  return `${kind}-${state.step ?? 0}-${state.parts}`;
}

function streamedInput(
  state: UIChunkState,
  event: Extract<AgentEvent, { type: 'tool-call-delta' }>,
  dynamic: boolean,
): UIMessageChunk[] {
  const input = state.inputs.get(event.index) ?? { id: undefined, name: undefined, held: '', started: false };
  state.inputs.set(event.index, input);
  input.id ??= event.id;
  input.name ??= event.name;
  if (input.started)
    return [{ type: 'tool-input-delta', toolCallId: input.id!, inputTextDelta: event.argumentsDelta }];
  input.held += event.argumentsDelta;
  if (input.id === undefined || input.name === undefined) return [];
  input.started = true;
  const chunks: UIMessageChunk[] = [
    ...closeParts(state),
    { type: 'tool-input-start', toolCallId: input.id, toolName: input.name, ...(dynamic ? { dynamic } : {}) },
  ];
  if (input.held !== '')
    chunks.push({ type: 'tool-input-delta', toolCallId: input.id, inputTextDelta: input.held });
  return chunks;
}

function inputOf(call: ToolCall, dynamic: boolean): UIMessageChunk {
  const shape = { toolCallId: call.id, toolName: call.name, ...(dynamic ? { dynamic } : {}) };
  return call.invalidArguments
    ? {
        type: 'tool-input-error',
        ...shape,
        input: call.invalidArguments.raw,
        errorText: call.invalidArguments.message,
      }
    : { type: 'tool-input-available', ...shape, input: call.arguments };
}

/** The tool's value when JSON can carry it, else the text the model saw. */
function outputOf(outcome: ToolOutcome): unknown {
  if (outcome.result === undefined) return outcome.content;
  try {
    JSON.stringify(outcome.result);
    return outcome.result;
  } catch {
    return outcome.content;
  }
}

function resultOf(
  state: UIChunkState,
  call: ToolCall,
  outcome: ToolOutcome,
  dynamic: boolean,
): UIMessageChunk[] {
  const approvalId = state.approvals.get(call.id);
  state.pending.delete(call.id);
  const chunks: UIMessageChunk[] = [];
  const denied = outcome.status === 'rejected' && approvalId !== undefined;
  if (approvalId !== undefined)
    chunks.push({ type: 'tool-approval-response', approvalId, approved: !denied });
  const shape = { toolCallId: call.id, ...(dynamic ? { dynamic } : {}) };
  if (denied) chunks.push({ type: 'tool-output-denied', toolCallId: call.id });
  else if (outcome.status === 'ok')
    chunks.push({ type: 'tool-output-available', ...shape, output: outputOf(outcome) });
  else
    chunks.push({ type: 'tool-output-error', ...shape, errorText: outcome.error?.message ?? outcome.status });
  return chunks;
}

/**
 * The UI message chunks for one agent event, updating `state`: a pure step of
 * `toUIMessageStream`.
 */
export function uiChunksOfEvent(
  state: UIChunkState,
  event: AgentEvent,
  settings: UIChunkSettings,
): UIMessageChunk[] {
  const { dynamic } = settings;
  switch (event.type) {
    case 'step-started': {
      const chunks = closeStep(state);
      state.step = event.step;
      state.inputs.clear();
      return [...chunks, { type: 'start-step' }];
    }
    case 'step-restarted':
      state.text = undefined;
      state.reasoning = undefined;
      state.inputs.clear();
      return [{ type: 'reset-step' }];
    case 'text-delta': {
      if (event.text === '') return [];
      const chunks: UIMessageChunk[] = [];
      if (state.reasoning !== undefined) chunks.push({ type: 'reasoning-end', id: state.reasoning });
      state.reasoning = undefined;
      if (state.text === undefined) {
        state.text = partId(state, 'text');
        chunks.push({ type: 'text-start', id: state.text });
      }
      chunks.push({ type: 'text-delta', id: state.text, delta: event.text });
      return chunks;
    }
    case 'reasoning-delta': {
      if (event.text === '') return [];
      const chunks: UIMessageChunk[] = [];
      if (state.text !== undefined) chunks.push({ type: 'text-end', id: state.text });
      state.text = undefined;
      if (state.reasoning === undefined) {
        state.reasoning = partId(state, 'reasoning');
        chunks.push({ type: 'reasoning-start', id: state.reasoning });
      }
      chunks.push({ type: 'reasoning-delta', id: state.reasoning, delta: event.text });
      return chunks;
    }
    case 'tool-call-delta':
      return streamedInput(state, event, dynamic);
    case 'tool-calls-ready':
      return [...closeParts(state), ...event.toolCalls.map((call) => inputOf(call, dynamic))];
    case 'stream-completed':
    case 'step-completed':
      return closeParts(state);
    case 'approval-requested': {
      const approvalId = settings.approvalId(event.toolCall);
      state.approvals.set(event.toolCall.id, approvalId);
      state.pending.set(event.toolCall.id, approvalId);
      return [{ type: 'tool-approval-request', approvalId, toolCallId: event.toolCall.id }];
    }
    case 'tool-result':
      return resultOf(state, event.toolCall, event.outcome, dynamic);
    case 'agent-completed': {
      state.completed = true;
      const reason = event.result.finishReason;
      const finishReason = (FINISH_REASONS.has(reason) ? reason : 'other') as UIFinishReason;
      return [...closeStep(state), { type: 'finish', finishReason }];
    }
    default: {
      const never: never = event;
      return never;
    }
  }
}
