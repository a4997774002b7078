/**
 * A tool call's arguments (or a fragment of them) as the wire sent them, as text: a string as it
 * is, nothing as `''`, any other JSON value as its JSON text. Some OpenAI-compatible servers send
 * `arguments` as an object rather than a string; a hostile one sends anything. Whatever the text
 * is, `accumulateToolCalls` judges it (a call whose arguments are not a JSON object carries
 * `invalidArguments`); it takes every fragment through this too, for untyped custom providers.
 * @example argumentsText({ city: 'Paris' }) // '{"city":"Paris"}'
 */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  // A JSON value from a parsed event: always serialisable (no cycles, no bigint, no functions).
  return JSON.stringify(value) ?? '';
}
