import { StreamParseError } from '../../core/index.ts';

/**
 * The JSON object carried by one stream event's data. Anything else — invalid JSON, or a bare
 * value such as `null`, `42` or an array — is a `StreamParseError` carrying the raw text.
 * @param provider names the provider in the error
 * @example const chunk = parseEventJson<OpenAIChunk>(message.data, 'openai');
 */
export function parseEventJson<T extends object>(raw: string, provider: string): T {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (cause) {
    throw new StreamParseError(`${provider}: a stream event is not valid JSON`, raw, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StreamParseError(`${provider}: a stream event is not a JSON object`, raw);
  }
  return value as T;
}
