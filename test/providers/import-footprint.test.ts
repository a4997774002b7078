import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ENTRIES = ['openai', 'anthropic', 'gemini', 'ollama', 'bedrock'] as const;

/** The packages (under node_modules) a fresh process loads to import `rxagent/<entry>`. */
function packagesLoadedBy(entry: string): string[] {
  // Synchronous module hooks see every module the import graph resolves, ESM and CommonJS.
  const script = `
    import { registerHooks } from 'node:module';
    const packages = new Set();
    registerHooks({
      resolve(specifier, context, next) {
        const result = next(specifier, context);
        const match = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(result.url);
        if (match) packages.add(match[1]);
        return result;
      },
    });
    await import('rxagent/${entry}');
    console.log(JSON.stringify([...packages].sort()));
  `;
  const child = spawnSync(
    process.execPath,
    ['--conditions=rxagent-source', '--input-type=module', '-e', script],
    { cwd: root, encoding: 'utf8', timeout: 30_000 },
  );
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '[]') as string[];
}

describe("a provider's import (what every process using it pays before its first request)", () => {
  it.each(ENTRIES)('rxagent/%s loads neither zod nor an HTTP client library: fetch is enough', (entry) => {
    const loaded = packagesLoadedBy(entry);
    expect(loaded).not.toContain('zod');
    expect(loaded).not.toContain('ky');
    expect(loaded).toContain('rxjs');
  });
});
