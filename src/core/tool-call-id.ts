/**
 * A fresh tool-call id for wire formats that send none (Gemini, Ollama): `call_` and 24 hex
 * digits of a random UUID, unique across turns, runs and processes (ids end up in sessions and
 * audit logs, where a repeating `call_1` would collide).
 * @example generateToolCallId() // → 'call_3f2a9c…'
 */
export function generateToolCallId(): string {
  return `call_${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
}
