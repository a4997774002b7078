import type { ModelCapabilities } from '../../core/index.ts';

// Model families by their Ollama library names (the part before ':' and any namespace).
const VISION =
  /llava|moondream|minicpm-v|vision|gemma3(?!n)|qwen2\.5vl|qwen2-vl|qwen3-vl|llama4|mistral-small3\.[12]/;
const REASONING = /deepseek-r1|qwq|qwen3|gpt-oss|magistral|phi4-reasoning|cogito|exaone-deep|openthinker/;
const NO_TOOLS = /^(?:llava|bakllava|moondream|gemma|codellama|phi3|phi-?2|tinyllama|orca-mini|starcoder)/;

/**
 * What an Ollama model can do, guessed from its library name: tools for the tool-trained families,
 * vision for the multimodal ones, reasoning for the thinking ones, JSON (`format`) for all.
 * Override with the factory's `capabilities` option for custom or renamed models.
 * @example ollamaCapabilities('qwen3:8b') // → { tools: true, vision: false, reasoning: true, … }
 */
export function ollamaCapabilities(modelId: string): ModelCapabilities {
  const name = modelId.toLowerCase().slice(modelId.lastIndexOf('/') + 1);
  return {
    streaming: true,
    tools: !NO_TOOLS.test(name),
    vision: VISION.test(name),
    json: true,
    reasoning: REASONING.test(name),
  };
}
