export { type ChunkMapper, NO_EVENTS } from './chunk-mapper.ts';
export { createChatModel } from './create-chat-model.ts';
export { decodeChunks } from './decode-chunks.ts';
export { inlineMedia, sniffImageType } from './inline-media.ts';
export { mapChunks } from './map-chunks.ts';
export { parseEventJson } from './parse-event-json.ts';
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  env,
  type ProviderOptions,
  splitProviderOptions,
  trimSlash,
} from './provider-options.ts';
export {
  type ChunkDecoding,
  type ProviderStreamBase,
  type ProviderStreamConfig,
  providerStream,
} from './provider-stream.ts';
