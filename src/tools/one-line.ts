/** `text` on one line of at most 300 characters: what a model or an audit record is shown of a reason. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
