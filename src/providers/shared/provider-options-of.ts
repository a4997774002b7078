import type { ChatRequest } from '../../core/index.ts';

/**
 * The entry of `request.providerOptions` under `key` (the model's provider name), or `{}`: a
 * model reads only its own key, so options meant for another model of a `fallback()` never reach
 * its wire.
 * @example providerOptionsOf({ messages: 'Hi', providerOptions: { openai: { seed: 1 } } }, 'openai') // → { seed: 1 }
 */
export function providerOptionsOf(request: ChatRequest, key: string): Record<string, unknown> {
  const entry = request.providerOptions?.[key];
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? entry : {};
}
