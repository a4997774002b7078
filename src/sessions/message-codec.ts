import { type Message, message, SessionCorruptError } from '../core/index.ts';
import { assertMessageShape } from './message-shape.ts';
import { parseTagged, stringifyTagged } from './tagged-json.ts';

/**
 * One message as the text a session store keeps: every field (content parts with binary data,
 * tool calls with `invalidArguments`, `isError`, `cache`, provider `metadata`) survives.
 * @throws TypeError when `value` is not a message (see `messageShapeProblem`)
 * @example decodeMessage(encodeMessage(user('hi')))
 */
export function encodeMessage(value: Message): string {
  return stringifyTagged(assertMessageShape(value));
}

/**
 * A message read back from a store, frozen as `message()` freezes it.
 * @throws SyntaxError (not JSON) or TypeError (JSON that is not a message)
 * @example decodeMessage('{"role":"user","content":"hi"}')
 */
export function decodeMessage(text: string): Message {
  return message(assertMessageShape(parseTagged(text)));
}

/**
 * A session's stored messages, decoded; the first one that does not decode is a
 * `SessionCorruptError` naming the store, the session and its position.
 * @example decodeStoredMessages('redis', 's1', ['{"role":"user","content":"hi"}'])
 */
export function decodeStoredMessages(store: string, sessionId: string, texts: readonly string[]): Message[] {
  return texts.map((text, position) => {
    try {
      return decodeMessage(text);
    } catch (cause) {
      throw new SessionCorruptError(store, sessionId, position, cause);
    }
  });
}

/**
 * A session's stored metadata (tagged JSON of an object), or a `SessionCorruptError`.
 * @example decodeStoredMetadata('file', 's1', '{"title":"x"}')
 */
export function decodeStoredMetadata(
  store: string,
  sessionId: string,
  text: string,
): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseTagged(text);
  } catch (cause) {
    throw new SessionCorruptError(store, sessionId, 'metadata', cause);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SessionCorruptError(store, sessionId, 'metadata', new TypeError('metadata must be an object'));
  return value as Record<string, unknown>;
}
