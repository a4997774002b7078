export { ollama, type OllamaOptions } from './ollama.ts';
