import type { ProviderEvent } from '../../core/index.ts';
import { argumentsText, NO_EVENTS, tokenCount } from '../shared/index.ts';
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
      return isText(delta.text) ? [{ type: 'text-delta', text: delta.text }] : NO_EVENTS;
    case 'input_json_delta': {
      const json = argumentsText(delta.partial_json);
      if (block === undefined || !json) return NO_EVENTS;
      block.sawInput = true;
      if (block.kind === 'json') return [{ type: 'text-delta', text: json }];
      return block.kind === 'tool'
        ? [{ type: 'tool-call-delta', index: block.ordinal, argumentsDelta: json }]
        : NO_EVENTS;
    }
    case 'thinking_delta':
      if (!isText(delta.thinking)) return NO_EVENTS;
      if (block?.entry !== undefined) block.entry.thinking += delta.thinking;
      return [{ type: 'reasoning-delta', text: delta.thinking }];
    case 'signature_delta':
      if (block?.entry !== undefined && isText(delta.signature)) block.entry.signature += delta.signature;
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
      return isText(content.text) ? [{ type: 'text-delta', text: content.text }] : NO_EVENTS;
    case 'thinking':
      block.kind = 'thinking';
      block.entry = {
        type: 'thinking',
        thinking: isText(content.thinking) ? content.thinking : '',
        signature: isText(content.signature) ? content.signature : '',
      };
      state.thinking.push(block.entry);
      return isText(content.thinking) ? [{ type: 'reasoning-delta', text: content.thinking }] : NO_EVENTS;
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
          ...(isText(content.id) ? { id: content.id } : {}),
          ...(isText(content.name)
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

/** Non-empty text: a server sending another type (an object, a number) adds nothing. */
function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** Usage fields are cumulative: a later event's value replaces an earlier one. */
function readUsage(usage: AnthropicUsage | null | undefined, state: AnthropicStreamState): void {
  if (!usage) return;
  state.sawUsage = true;
  state.inputTokens = tokenCount(usage.input_tokens) ?? state.inputTokens;
  state.outputTokens = tokenCount(usage.output_tokens) ?? state.outputTokens;
  state.cacheReadTokens = tokenCount(usage.cache_read_input_tokens) ?? state.cacheReadTokens;
  state.cacheWriteTokens = tokenCount(usage.cache_creation_input_tokens) ?? state.cacheWriteTokens;
  state.cacheWrite1hTokens =
    tokenCount(usage.cache_creation?.ephemeral_1h_input_tokens) ?? state.cacheWrite1hTokens;
  state.thinkingTokens = tokenCount(usage.output_tokens_details?.thinking_tokens) ?? state.thinkingTokens;
}
