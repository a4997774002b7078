import type { ProviderEvent } from '../../core/index.ts';
import type { OpenAIContentPartDelta } from './openai-wire.ts';

function thinkingText(thinking: OpenAIContentPartDelta['thinking']): string {
  if (typeof thinking === 'string') return thinking;
  if (!Array.isArray(thinking)) return '';
  let text = '';
  for (const part of thinking as readonly { text?: unknown }[])
    if (typeof part?.text === 'string') text += part.text;
  return text;
}

/**
 * The events of a delta whose `content` is an array of typed parts (Mistral's reasoning models):
 * `text` parts as text deltas, `thinking` parts (text, or a list of text parts) as reasoning
 * deltas, in order; parts of other types and empty ones give nothing.
 * @example contentPartEvents([{ type: 'thinking', thinking: [{ type: 'text', text: 'Hm' }] }, { type: 'text', text: '4' }])
 * // → [{ type: 'reasoning-delta', text: 'Hm' }, { type: 'text-delta', text: '4' }]
 */
export function contentPartEvents(parts: readonly OpenAIContentPartDelta[]): ProviderEvent[] {
  const events: ProviderEvent[] = [];
  for (const part of parts) {
    if (typeof part !== 'object' || part === null) continue;
    if (part.type === 'text' && typeof part.text === 'string' && part.text !== '')
      events.push({ type: 'text-delta', text: part.text });
    else if (part.type === 'thinking') {
      const text = thinkingText(part.thinking);
      if (text !== '') events.push({ type: 'reasoning-delta', text });
    }
  }
  return events;
}
