export { type OllamaOptions, ollama } from './ollama.ts';
export { ollamaCapabilities } from './ollama-capabilities.ts';
export { createOllamaMapper, type OllamaChunk } from './ollama-chunk-mapper.ts';
export { resolveOllamaHost } from './ollama-host.ts';
export {
  buildOllamaRequest,
  type OllamaChatBody,
  type OllamaMessage,
  type OllamaRequestSettings,
} from './ollama-request.ts';
