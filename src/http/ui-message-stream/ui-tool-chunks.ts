import type { AgentEvent } from '../../agent/agent-event.ts';
import type { ToolCall } from '../../core/index.ts';
import type { ToolOutcome } from '../../tools/index.ts';
import { closeParts, type UIChunkState } from './ui-chunk-state.ts';
import type { UIMessageChunk } from './ui-message-chunk.ts';

/** The chunks for a tool call's input delta: `tool-input-start` once its id and name are known. */
export function streamedInput(
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

/** The chunk for a complete tool call: its input, or an input error for JSON the model broke. */
export function inputOf(call: ToolCall, dynamic: boolean): UIMessageChunk {
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

/** What the model was told of a failed call (never what the tool threw: that is for logs). */
function modelText(outcome: ToolOutcome): string {
  if (typeof outcome.content === 'string') return outcome.content;
  const text = outcome.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  return text === '' ? outcome.status : text;
}

/** The chunks for a tool call's outcome: the approval's answer, then its output, error or denial. */
export function resultOf(
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
  else chunks.push({ type: 'tool-output-error', ...shape, errorText: modelText(outcome) });
  return chunks;
}
