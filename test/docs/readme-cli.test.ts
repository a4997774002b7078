import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const readme = await readFile(new URL('README.md', root), 'utf8');
/** The README's CLI section up to its first command block: what it tells a person with a clone. */
const clone = readme.slice(readme.indexOf('## CLI'), readme.indexOf('```sh', readme.indexOf('## CLI')));

describe("the README's CLI commands for a clone of the repository", () => {
  it('does not promise an `rxagent` command in a clone: npm links no bin of a package into its own folder', () => {
    const cloneAdvice = clone.slice(clone.indexOf('In a clone'));
    expect(cloneAdvice.length).toBeGreaterThan(20);
    expect(cloneAdvice).not.toMatch(/`npx rxagent|the `rxagent` command/);
    // The way every other script of the repository runs (`npm run demo`, `npm run web`).
    expect(cloneAdvice).toContain('`npm run chat -- --demo`');
  });

  it('gives a command that runs the chat from source, as written', async () => {
    const commands = [...clone.matchAll(/`((?:npx node|npm run)[^`]*chat[^`]*--demo[^`]*)`/g)].map(
      (m) => m[1]!,
    );
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const stdout = await new Promise<string>((resolve, reject) => {
        const clean = { ...process.env };
        for (const name of Object.keys(clean)) if (/_API_KEY$/.test(name)) delete clean[name];
        const child = execFile(
          'sh',
          ['-c', command],
          { cwd: fileURLToPath(root), env: clean, timeout: 60_000 },
          (error, out) => (error ? reject(error) : resolve(out)),
        );
        child.stdin!.end('hi\n');
      });
      expect(stdout, command).toMatch(/This is rxagent running offline/);
    }
  }, 120_000);
});
