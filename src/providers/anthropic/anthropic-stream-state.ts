import type { ToolNameCodec } from '../shared/index.ts';
import type { AnthropicThinkingBlock } from './anthropic-metadata.ts';

/** One open content block. */
export interface AnthropicBlockState {
  kind: 'text' | 'thinking' | 'tool' | 'json' | 'other';
  /** The tool call's ordinal (0, 1, 2 … in stream order) for `tool` blocks. */
  ordinal: number;
  /** The thinking entry deltas append to, for `thinking` blocks. */
  entry: { type: 'thinking'; thinking: string; signature: string } | undefined;
  /** Whether any `input_json_delta` arrived (else a non-empty start `input` is sent at stop). */
  sawInput: boolean;
  startInput: unknown;
}

/** The per-attempt state of `mapAnthropicEvent`. */
export interface AnthropicStreamState {
  /** Open blocks by the stream's content block index. */
  blocks: (AnthropicBlockState | undefined)[];
  toolCount: number;
  thinking: AnthropicThinkingBlock[];
  /** Whether any event carried a usage object (else the finish part has no `usage`). */
  sawUsage: boolean;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Of `cacheWriteTokens`, the 1-hour writes. */
  cacheWrite1hTokens: number;
  /** Thinking tokens, when the API reported them (part of `outputTokens`). */
  thinkingTokens: number | undefined;
  stopReason: string | undefined;
  responseId: string | undefined;
  model: string | undefined;
  /** The synthetic tool whose input is the JSON reply (`responseFormat: json`), if any. */
  jsonTool: string | undefined;
  /** Decodes wire tool names back to the caller's. */
  toolNames: ToolNameCodec | undefined;
  started: boolean;
  finished: boolean;
}

/** Fresh state for one attempt. */
export function createAnthropicStreamState(
  jsonTool?: string,
  toolNames?: ToolNameCodec,
): AnthropicStreamState {
  return {
    blocks: [],
    toolCount: 0,
    thinking: [],
    sawUsage: false,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite1hTokens: 0,
    thinkingTokens: undefined,
    stopReason: undefined,
    responseId: undefined,
    model: undefined,
    jsonTool,
    toolNames,
    started: false,
    finished: false,
  };
}
