import type { ProviderEvent } from '../../core/index.ts';
import { NO_EVENTS } from '../shared/index.ts';
import { anthropicFinish } from './anthropic-finish.ts';
import { anthropicStreamError } from './anthropic-stream-error.ts';
import type { AnthropicBlockState, AnthropicStreamState } from './anthropic-stream-state.ts';
import type { AnthropicStreamEvent, AnthropicUsage } from './anthropic-wire.ts';

/**
 * Maps one Anthropic stream event to provider events, updating `state`. Pure apart from `state`;
 * throws the typed error of an `error` event. `ping` and unknown events map to nothing.
 */
export function mapAnthropicEvent(
  event: AnthropicStreamEvent,
  state: AnthropicStreamState,
): readonly ProviderEvent[] {
  state.started = true;
  switch (event.type) {
    case 'content_block_delta':
      return mapDelta(event, state);
    case 'content_block_start':
      return startBlock(event, state);
    case 'content_block_stop':
      return stopBlock(event, state);
    case 'message_start':
      state.responseId = event.message?.id ?? state.responseId;
      state.model = event.message?.model ?? state.model;
      readUsage(event.message?.usage, state);
      return NO_EVENTS;
    case 'message_delta':
      if (typeof event.delta?.stop_reason === 'string') state.stopReason = event.delta.stop_reason;
      readUsage(event.usage, state);
      return NO_EVENTS;
    case 'message_stop':
      if (state.finished) return NO_EVENTS;
      state.finished = true;
      return [anthropicFinish(state)];
    case 'error':
      throw anthropicStreamError(event.error, JSON.stringify(event));
    default:
      return NO_EVENTS;
  }
}

function mapDelta(event: AnthropicStreamEvent, state: AnthropicStreamState): readonly ProviderEvent[] {
  const delta = event.delta;
  if (delta === undefined) return NO_EVENTS;
  const block = state.blocks[event.index ?? 0];
  switch (delta.type) {
    case 'text_delta':
      return delta.text ? [{ type: 'text-delta', text: delta.text }] : NO_EVENTS;
    case 'input_json_delta': {
      const json = delta.partial_json;
      if (block === undefined || !json) return NO_EVENTS;
      block.sawInput = true;
      if (block.kind === 'json') return [{ type: 'text-delta', text: json }];
      return block.kind === 'tool'
        ? [{ type: 'tool-call-delta', index: block.ordinal, argumentsDelta: json }]
        : NO_EVENTS;
    }
    case 'thinking_delta':
      if (!delta.thinking) return NO_EVENTS;
      if (block?.entry !== undefined) block.entry.thinking += delta.thinking;
      return [{ type: 'reasoning-delta', text: delta.thinking }];
    case 'signature_delta':
      if (block?.entry !== undefined && delta.signature) block.entry.signature += delta.signature;
      return NO_EVENTS;
    default:
      return NO_EVENTS;
  }
}

function startBlock(event: AnthropicStreamEvent, state: AnthropicStreamState): readonly ProviderEvent[] {
  const content = event.content_block;
  const block: AnthropicBlockState = {
    kind: 'other',
    ordinal: -1,
    entry: undefined,
    sawInput: false,
    startInput: undefined,
  };
  state.blocks[event.index ?? 0] = block;
  switch (content?.type) {
    case 'text':
      block.kind = 'text';
      return content.text ? [{ type: 'text-delta', text: content.text }] : NO_EVENTS;
    case 'thinking':
      block.kind = 'thinking';
      block.entry = {
        type: 'thinking',
        thinking: content.thinking ?? '',
        signature: content.signature ?? '',
      };
      state.thinking.push(block.entry);
      return content.thinking ? [{ type: 'reasoning-delta', text: content.thinking }] : NO_EVENTS;
    case 'redacted_thinking':
      if (typeof content.data === 'string')
        state.thinking.push({ type: 'redacted_thinking', data: content.data });
      return NO_EVENTS;
    case 'tool_use':
      block.startInput = content.input;
      if (state.jsonTool !== undefined && content.name === state.jsonTool) {
        block.kind = 'json';
        return NO_EVENTS;
      }
      block.kind = 'tool';
      block.ordinal = state.toolCount++;
      return [
        {
          type: 'tool-call-delta',
          index: block.ordinal,
          ...(content.id ? { id: content.id } : {}),
          ...(content.name
            ? { name: state.toolNames ? state.toolNames.decode(content.name) : content.name }
            : {}),
          argumentsDelta: '',
        },
      ];
    default:
      return NO_EVENTS;
  }
}

/** A tool block that streamed no input fragments sends its start `input` whole, if it has any. */
function stopBlock(event: AnthropicStreamEvent, state: AnthropicStreamState): readonly ProviderEvent[] {
  const index = event.index ?? 0;
  const block = state.blocks[index];
  state.blocks[index] = undefined;
  if (block === undefined || block.sawInput || (block.kind !== 'tool' && block.kind !== 'json'))
    return NO_EVENTS;
  const input = block.startInput;
  if (typeof input !== 'object' || input === null || Object.keys(input).length === 0) return NO_EVENTS;
  const json = JSON.stringify(input);
  return block.kind === 'json'
    ? [{ type: 'text-delta', text: json }]
    : [{ type: 'tool-call-delta', index: block.ordinal, argumentsDelta: json }];
}

/** Usage fields are cumulative: a later event's value replaces an earlier one. */
function readUsage(usage: AnthropicUsage | null | undefined, state: AnthropicStreamState): void {
  if (!usage) return;
  state.sawUsage = true;
  if (typeof usage.input_tokens === 'number') state.inputTokens = usage.input_tokens;
  if (typeof usage.output_tokens === 'number') state.outputTokens = usage.output_tokens;
  if (typeof usage.cache_read_input_tokens === 'number')
    state.cacheReadTokens = usage.cache_read_input_tokens;
  if (typeof usage.cache_creation_input_tokens === 'number')
    state.cacheWriteTokens = usage.cache_creation_input_tokens;
  const hour = usage.cache_creation?.ephemeral_1h_input_tokens;
  if (typeof hour === 'number') state.cacheWrite1hTokens = hour;
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') state.thinkingTokens = thinking;
}
