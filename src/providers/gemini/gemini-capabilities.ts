import type { ModelCapabilities } from '../../core/index.ts';

/**
 * What a Gemini API model can do, from its id: Gemini models take tools, images and JSON
 * (`responseMimeType`); they think from 2.5 on (and the 2.0 `thinking` experiments). Gemma models
 * served by the Gemini API have no function calling or JSON mode. An id rxagent cannot read is
 * taken for a current Gemini model.
 * @example geminiCapabilities('gemini-2.0-flash').reasoning // → false
 */
export function geminiCapabilities(modelId: string): ModelCapabilities {
  const id = modelId.slice(modelId.lastIndexOf('/') + 1).toLowerCase();
  if (id.startsWith('gemma'))
    return { streaming: true, tools: false, vision: true, json: false, reasoning: false };
  const version = /^gemini-(\d+(?:\.\d+)?)/.exec(id)?.[1];
  const reasoning = version === undefined || Number(version) >= 2.5 || id.includes('thinking');
  return { streaming: true, tools: true, vision: true, json: true, reasoning };
}
