import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(join(root, path)).isDirectory()
      ? filesUnder(path)
      : /\.(ts|tsx)$/.test(name)
        ? [path]
        : [];
  });
}

/** A `node … file.ts` command not run through `npx` (the machine's Node 20 cannot run `.ts`). */
const bareNodeOnTs = /(?<![\w-]|npx )node (?:--[\w-]+(?:=\S+)? )*\S+\.ts\b/g;

describe('every run command in the README, the examples and the benchmarks works on Node 20', () => {
  it('runs a .ts file with npx node (the project’s Node 24), never the bare node first on PATH', () => {
    const offending: string[] = [];
    for (const file of ['README.md', ...filesUnder('examples'), ...filesUnder('bench')]) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const match of line.matchAll(bareNodeOnTs)) offending.push(`${file}:${index + 1}: ${match[0]}`);
      });
    }
    expect(offending).toEqual([]);
  });
});
