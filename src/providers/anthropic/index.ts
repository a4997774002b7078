export { type AnthropicMessageMetadata, type AnthropicThinkingBlock } from './anthropic-metadata.ts';
export { anthropic, type AnthropicOptions } from './anthropic.ts';
export { type AnthropicThinking } from './to-anthropic-request.ts';
export type { AnthropicProviderOptions } from './anthropic-provider-options.ts';
