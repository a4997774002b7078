export { ollama, type OllamaOptions } from './ollama.ts';
export type { OllamaProviderOptions } from './ollama-provider-options.ts';
