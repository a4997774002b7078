import type { FinishPart, FinishReason, Usage } from '../../core/index.ts';
import type { AnthropicStreamState } from './anthropic-stream-state.ts';

/** Anthropic's `stop_reason` in the shared vocabulary. */
export function anthropicFinishReason(raw: string | undefined, toolCalls: number): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      // Only the synthetic JSON tool was called: to the caller this is a plain reply.
      return toolCalls > 0 ? 'tool-calls' : 'stop';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

/**
 * The `finish` part at `message_stop`: the unified and raw stop reason, usage (when any event
 * reported it) with cached tokens counted in `inputTokens`, and the turn's thinking blocks as `metadata.anthropic.thinking`.
 */
export function anthropicFinish(state: AnthropicStreamState): FinishPart {
  return {
    type: 'finish',
    finishReason: anthropicFinishReason(state.stopReason, state.toolCount),
    ...(state.stopReason === undefined ? {} : { rawFinishReason: state.stopReason }),
    ...(state.sawUsage ? { usage: anthropicUsage(state) } : {}),
    ...(state.responseId === undefined ? {} : { responseId: state.responseId }),
    ...(state.model === undefined ? {} : { model: state.model }),
    ...(state.thinking.length === 0 ? {} : { metadata: { anthropic: { thinking: state.thinking } } }),
  };
}

function anthropicUsage(state: AnthropicStreamState): Usage {
  const inputTokens = state.inputTokens + state.cacheReadTokens + state.cacheWriteTokens;
  return {
    inputTokens,
    outputTokens: state.outputTokens,
    totalTokens: inputTokens + state.outputTokens,
    ...(state.cacheReadTokens > 0 ? { cachedInputTokens: state.cacheReadTokens } : {}),
    ...(state.cacheWriteTokens > 0 ? { cacheWriteTokens: state.cacheWriteTokens } : {}),
    ...(state.cacheWrite1hTokens > 0 ? { cacheWrite1hTokens: state.cacheWrite1hTokens } : {}),
    ...(state.thinkingTokens === undefined ? {} : { reasoningTokens: state.thinkingTokens }),
  };
}
