export { createGeminiMapper } from './create-gemini-mapper.ts';
export { GEMINI_BASE_URL, type GeminiOptions, gemini } from './gemini.ts';
export { geminiCapabilities } from './gemini-capabilities.ts';
export type { GeminiFunctionCallMetadata, GeminiMessageMetadata } from './gemini-metadata.ts';
export { geminiStreamError, parseGeminiErrorBody } from './gemini-stream-error.ts';
export type { GeminiChunk, GeminiRequestBody } from './gemini-wire.ts';
export {
  createGeminiStreamState,
  type GeminiStreamState,
  geminiFinish,
  geminiFinishReason,
  geminiUsage,
  mapGeminiChunk,
} from './map-gemini-chunk.ts';
export { type GeminiRequestSettings, type GeminiThinking, toGeminiRequest } from './to-gemini-request.ts';
export { toGeminiSchema } from './to-gemini-schema.ts';
