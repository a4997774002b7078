import type { ModelCapabilities } from '../../core/index.ts';

/** Capability overrides a factory accepts (`streaming` is always true). */
export type CapabilityOverrides = Partial<Omit<ModelCapabilities, 'streaming'>>;

const caps = (tools: boolean, vision: boolean, json: boolean, reasoning: boolean): ModelCapabilities => ({
  streaming: true,
  tools,
  vision,
  json,
  reasoning,
});

// Longest matching prefix wins, as in the price table.
const FAMILIES: Readonly<Record<string, ModelCapabilities>> = {
  'gpt-5': caps(true, true, true, true),
  'gpt-5-chat': caps(true, true, true, false),
  'gpt-4.1': caps(true, true, true, false),
  'gpt-4o': caps(true, true, true, false),
  'chatgpt-4o': caps(false, true, true, false),
  'gpt-4-turbo': caps(true, true, true, false),
  'gpt-4': caps(true, false, false, false),
  'gpt-3.5-turbo': caps(true, false, true, false),
  o1: caps(true, true, true, true),
  'o1-mini': caps(false, false, false, true),
  'o1-preview': caps(false, false, false, true),
  o3: caps(true, true, true, true),
  'o3-mini': caps(true, false, true, true),
  o4: caps(true, true, true, true),
};

/**
 * What an OpenAI model can do, by family (matched by the longest prefix of the id, ignoring a
 * `vendor/` prefix as routers such as OpenRouter use): gpt-4o, gpt-4.1 and gpt-5 see images, call
 * tools and follow JSON formats; o1, o3, o4 and gpt-5 reason; o1-mini and o1-preview have no tools.
 * An unknown id gets `fallback`, and `overrides` win over both.
 * @param fallback for ids outside the table; @default tools and JSON, no vision, no reasoning
 * @example openAICapabilities('gpt-4o-mini').vision // → true
 */
export function openAICapabilities(
  modelId: string,
  overrides: CapabilityOverrides = {},
  fallback: ModelCapabilities = caps(true, false, true, false),
): ModelCapabilities {
  const id = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  let best: string | undefined;
  for (const key of Object.keys(FAMILIES)) {
    if (id.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  const base = (best === undefined ? undefined : FAMILIES[best]) ?? fallback;
  return { ...base, ...definedOnly(overrides), streaming: true };
}

function definedOnly(overrides: CapabilityOverrides): CapabilityOverrides {
  const out: CapabilityOverrides = {};
  for (const key of ['tools', 'vision', 'json', 'reasoning'] as const) {
    const value = overrides[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
