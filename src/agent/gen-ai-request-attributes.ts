import type { ChatRequest } from '../core/index.ts';

// ChatRequest settings and their OpenTelemetry GenAI attribute names.
const NUMERIC = [
  ['temperature', 'gen_ai.request.temperature'],
  ['topP', 'gen_ai.request.top_p'],
  ['topK', 'gen_ai.request.top_k'],
  ['maxOutputTokens', 'gen_ai.request.max_tokens'],
  ['seed', 'gen_ai.request.seed'],
  ['frequencyPenalty', 'gen_ai.request.frequency_penalty'],
  ['presencePenalty', 'gen_ai.request.presence_penalty'],
] as const;

/**
 * The `gen_ai.request.*` attributes of a request's settings (only those it sets).
 * @example genAiRequestAttributes({ messages, temperature: 0 }) // { 'gen_ai.request.temperature': 0 }
 */
export function genAiRequestAttributes(request: ChatRequest): Record<string, number | string[]> {
  const attributes: Record<string, number | string[]> = {};
  for (const [field, name] of NUMERIC) {
    const value = request[field];
    if (value !== undefined) attributes[name] = value;
  }
  if (request.stop && request.stop.length > 0)
    attributes['gen_ai.request.stop_sequences'] = [...request.stop];
  return attributes;
}
