export { answeredCallId } from './answered-call-id.ts';
export { argumentsText } from '../../core/arguments-text.ts';
export { type ChunkMapper, NO_EVENTS } from './chunk-mapper.ts';
export { createChatModel } from './create-chat-model.ts';
export { decodeChunks } from './decode-chunks.ts';
export { base64Of } from '../../core/base64.ts';
export { inlineMedia, sniffImageType, urlOf } from './inline-media.ts';
export { parseEventJson } from './parse-event-json.ts';
export { countIn, postJson } from './post-json.ts';
export { DEFAULT_IDLE_TIMEOUT_MS, env, type ProviderOptions, trimSlash } from './provider-options.ts';
export { providerOptionsOf } from './provider-options-of.ts';
export {
  type ChunkDecoding,
  type ProviderStreamBase,
  type ProviderStreamConfig,
  providerStream,
} from './provider-stream.ts';
export { responseJsonSchema } from './response-json-schema.ts';
export { textOnly, unknownContentPart } from './text-only.ts';
export { countOf, tokenCount } from './token-count.ts';
export {
  BEDROCK_TOOL_NAME_RULE,
  DEFAULT_TOOL_NAME_RULE,
  requestToolNames,
  type ToolNameCodec,
  type ToolNameRule,
  toolNameCodec,
  WIRE_TOOL_NAME,
} from './tool-name-codec.ts';
export { wireToolCallId } from './wire-tool-call-id.ts';
