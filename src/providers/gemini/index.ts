export { type GeminiFunctionCallMetadata, type GeminiMessageMetadata } from './gemini-metadata.ts';
export { gemini, GEMINI_BASE_URL, type GeminiOptions } from './gemini.ts';
export { type GeminiThinking } from './to-gemini-request.ts';
export type { GeminiProviderOptions } from './gemini-provider-options.ts';
