/**
 * `text` as one word of a POSIX shell command line: single-quoted, its own single quotes escaped. A
 * clone's path may hold spaces (`/home/me/my projects/rxagent`).
 * @example shellQuote("/tmp/rx agent") // "'/tmp/rx agent'"
 */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
