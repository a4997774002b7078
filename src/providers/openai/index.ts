export { AZURE_OPENAI_API_VERSION, type AzureOpenAIOptions, azureOpenAI } from './azure-openai.ts';
export {
  createOpenAIChunkState,
  endOpenAIStream,
  mapOpenAIChunk,
  type OpenAIChunkState,
  openAIChunkMapper,
  parseOpenAIMessage,
} from './map-openai-chunk.ts';
export { mapOpenAIFinishReason, mapOpenAIUsage } from './map-openai-finish.ts';
export { OPENAI_DEFAULT_BASE_URL, type OpenAIOptions, openai } from './openai.ts';
export { type CapabilityOverrides, openAICapabilities } from './openai-capabilities.ts';
export { type OpenAICompatibleOptions, openaiCompatible } from './openai-compatible.ts';
export * from './openai-wire.ts';
export {
  type OpenAIContentPart,
  type OpenAIMessage,
  type OpenAIToolCall,
  toOpenAIContentPart,
  toOpenAIMessage,
} from './to-openai-messages.ts';
export { type OpenAIRequestBody, type OpenAIRequestOptions, toOpenAIRequest } from './to-openai-request.ts';
