export { type AnthropicOptions, anthropic } from './anthropic.ts';
export { anthropicFinish, anthropicFinishReason } from './anthropic-finish.ts';
export type { AnthropicMessageMetadata, AnthropicThinkingBlock } from './anthropic-metadata.ts';
export { type AnthropicModelInfo, anthropicModelInfo } from './anthropic-model-info.ts';
export { anthropicStreamError } from './anthropic-stream-error.ts';
export { type AnthropicStreamState, createAnthropicStreamState } from './anthropic-stream-state.ts';
export type { AnthropicRequestBody, AnthropicStreamEvent } from './anthropic-wire.ts';
export { createAnthropicMapper } from './create-anthropic-mapper.ts';
export { mapAnthropicEvent } from './map-anthropic-event.ts';
export {
  ANTHROPIC_JSON_TOOL,
  type AnthropicRequestSettings,
  type AnthropicThinking,
  toAnthropicRequest,
} from './to-anthropic-request.ts';
