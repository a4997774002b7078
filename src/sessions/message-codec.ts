import { type Message, message } from '../core/index.ts';
import { parseTagged, stringifyTagged } from './tagged-json.ts';

/**
 * One message as the text a session store keeps: every field (content parts with binary data,
 * tool calls with `invalidArguments`, `isError`, `cache`, provider `metadata`) survives.
 * @example decodeMessage(encodeMessage(user('hi')))
 */
export function encodeMessage(value: Message): string {
  return stringifyTagged(value);
}

/**
 * A message read back from a store, frozen as `message()` freezes it.
 * @example decodeMessage('{"role":"user","content":"hi"}')
 */
export function decodeMessage(text: string): Message {
  return message(parseTagged(text) as Message);
}
