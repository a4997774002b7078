import type { AgentEvent } from '../../agent/agent-event.ts';
import type { ToolCall } from '../../core/index.ts';
import { closeParts, closeStep, type UIChunkState } from './ui-chunk-state.ts';
import type { UIFinishReason, UIMessageChunk } from './ui-message-chunk.ts';
import { inputOf, resultOf, streamedInput } from './ui-tool-chunks.ts';

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

function partId(state: UIChunkState, kind: string): string {
  state.parts += 1;
  return `${kind}-${state.step ?? 0}-${state.parts}`;
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
