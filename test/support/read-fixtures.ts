import { readFileSync } from 'node:fs';

/**
 * A reader of the text files in the `fixtures/` folder beside the calling module.
 * @param moduleUrl the caller's `import.meta.url`
 * @example export const fixture = readFixtures(import.meta.url); fixture('text.sse');
 */
export const readFixtures =
  (moduleUrl: string) =>
  (name: string): string =>
    readFileSync(new URL(`./fixtures/${name}`, moduleUrl), 'utf8');
