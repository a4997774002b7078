import {
  type FinishPart,
  type FinishReason,
  IncompleteStreamError,
  type ProviderEvent,
  type Usage,
} from '../../core/index.ts';
import {
  argumentsText,
  type ChunkMapper,
  countOf as n,
  NO_EVENTS,
  type ToolNameCodec,
} from '../shared/index.ts';
import { bedrockException } from './bedrock-exception.ts';
import type { BedrockReasoningBlock } from './bedrock-messages.ts';
import type { EventStreamEvent } from './decode-event-stream.ts';

/** The Converse stream payload fields rxagent reads; every other field is ignored. */
interface ConversePayload {
  contentBlockIndex?: number;
  start?: { toolUse?: { toolUseId?: string; name?: string } };
  delta?: {
    text?: string;
    toolUse?: { input?: string };
    reasoningContent?: { text?: string; signature?: string; redactedContent?: string };
  };
  stopReason?: string;
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    cacheReadInputTokens?: number;
    cacheWriteInputTokens?: number;
  };
}

const FINISH: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool-calls',
  guardrail_intervened: 'content-filter',
  content_filtered: 'content-filter',
};

/**
 * Maps Converse stream events to provider events: text and reasoning deltas; a `toolUse` block's
 * start (id, name) and `input` fragments → `tool-call-delta`s indexed by tool call (not by content
 * block); `messageStop` → the finish reason (end_turn / stop_sequence → `stop`, max_tokens →
 * `length`, tool_use → `tool-calls`, guardrail_intervened / content_filtered → `content-filter`,
 * else `other`); `metadata` → usage (`inputTokens` counts cache reads and writes too, as
 * everywhere in rxagent). The `finish` part is emitted when the body ends, after `metadata`;
 * without `messageStop` → `IncompleteStreamError`. Exception messages → typed errors. A reasoning
 * block's text and signature (or its redacted content) are kept, in order, in
 * `metadata.bedrock.reasoning`, so the turn can be sent back as it came. Tool names are decoded
 * with `toolNames`.
 * @param toolNames the request's tool-name codec
 */
export function createBedrockMapper(toolNames?: ToolNameCodec): ChunkMapper<EventStreamEvent> {
  return new BedrockMapper(toolNames);
}

/** A class, not closures made per stream: `map` is one call target for every stream (see `ChunkObserver`). */
class BedrockMapper implements ChunkMapper<EventStreamEvent> {
  private readonly toolIndex = new Map<number, number>();
  private stopReason: string | undefined;
  private usage: Usage | undefined;
  // Reasoning blocks by content-block index, in arrival order.
  private readonly reasoningBlocks = new Map<number, BedrockReasoningBlock>();
  private readonly toolNames: ToolNameCodec | undefined;

  constructor(toolNames: ToolNameCodec | undefined) {
    this.toolNames = toolNames;
  }

  map(event: EventStreamEvent): readonly ProviderEvent[] {
    if (event.messageType !== 'event') throw bedrockException(event.eventType || 'unknown', event.payload);
    const payload = (
      typeof event.payload === 'object' && event.payload !== null ? event.payload : {}
    ) as ConversePayload;
    const block = payload.contentBlockIndex ?? 0;
    switch (event.eventType) {
      case 'contentBlockStart': {
        const toolUse = payload.start?.toolUse;
        if (toolUse === undefined) return NO_EVENTS;
        return [
          {
            type: 'tool-call-delta',
            index: this.indexOf(block),
            ...(toolUse.toolUseId ? { id: toolUse.toolUseId } : {}),
            ...(toolUse.name
              ? { name: this.toolNames ? this.toolNames.decode(toolUse.name) : toolUse.name }
              : {}),
            argumentsDelta: '',
          },
        ];
      }
      case 'contentBlockDelta': {
        const delta = payload.delta ?? {};
        const events: ProviderEvent[] = [];
        if (typeof delta.text === 'string' && delta.text !== '')
          events.push({ type: 'text-delta', text: delta.text });
        const input = argumentsText(delta.toolUse?.input);
        if (input !== '') {
          events.push({ type: 'tool-call-delta', index: this.indexOf(block), argumentsDelta: input });
        }
        const reasoning = delta.reasoningContent;
        if (typeof reasoning?.text === 'string' && reasoning.text !== '') {
          events.push({ type: 'reasoning-delta', text: reasoning.text });
        }
        if (reasoning !== undefined) keepReasoning(this.reasoningBlocks, block, reasoning);
        return events.length === 0 ? NO_EVENTS : events;
      }
      case 'messageStop':
        this.stopReason = typeof payload.stopReason === 'string' ? payload.stopReason : 'unknown';
        return NO_EVENTS;
      case 'metadata':
        if (payload.usage) this.usage = usageOf(payload.usage);
        return NO_EVENTS;
      default:
        // An exception sent as an event type is still an exception.
        if (event.eventType.endsWith('Exception')) throw bedrockException(event.eventType, event.payload);
        // messageStart, contentBlockStop and event types added later carry nothing to map.
        return NO_EVENTS;
    }
  }

  end(): readonly ProviderEvent[] {
    const { stopReason, usage } = this;
    if (stopReason === undefined) {
      throw new IncompleteStreamError('The Bedrock stream ended before its messageStop event');
    }
    const reasoning = [...this.reasoningBlocks.values()];
    const finish: FinishPart = {
      type: 'finish',
      finishReason: FINISH[stopReason] ?? 'other',
      rawFinishReason: stopReason,
      ...(usage === undefined ? {} : { usage }),
      ...(reasoning.length === 0 ? {} : { metadata: { bedrock: { reasoning } } }),
    };
    return [finish];
  }

  private indexOf(block: number): number {
    let index = this.toolIndex.get(block);
    if (index === undefined) {
      index = this.toolIndex.size;
      this.toolIndex.set(block, index);
    }
    return index;
  }
}

function keepReasoning(
  blocks: Map<number, BedrockReasoningBlock>,
  index: number,
  delta: NonNullable<NonNullable<ConversePayload['delta']>['reasoningContent']>,
): void {
  if (typeof delta.redactedContent === 'string') {
    blocks.set(index, { redactedContent: delta.redactedContent });
    return;
  }
  let block = blocks.get(index);
  if (block === undefined || 'redactedContent' in block) {
    block = { text: '', signature: '' };
    blocks.set(index, block);
  }
  if (typeof delta.text === 'string') block.text += delta.text;
  if (typeof delta.signature === 'string') block.signature += delta.signature;
}

function usageOf(raw: NonNullable<ConversePayload['usage']>): Usage {
  const cached = n(raw.cacheReadInputTokens);
  const written = n(raw.cacheWriteInputTokens);
  const inputTokens = n(raw.inputTokens) + cached + written;
  const outputTokens = n(raw.outputTokens);
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(written > 0 ? { cacheWriteTokens: written } : {}),
  };
}
