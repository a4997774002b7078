import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/lib/tsc.js');

/** Every ```ts and ```tsx block of the README, with the line it starts on. */
async function readmeBlocks(): Promise<{ line: number; code: string; extension: 'ts' | 'tsx' }[]> {
  const lines = (await readFile(join(root, 'README.md'), 'utf8')).split('\n');
  const blocks: { line: number; code: string; extension: 'ts' | 'tsx' }[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const fence = lines[i];
    if (fence !== '```ts' && fence !== '```tsx') continue;
    const end = lines.indexOf('```', i + 1);
    blocks.push({
      line: i + 1,
      code: lines.slice(i + 1, end).join('\n'),
      extension: fence === '```ts' ? 'ts' : 'tsx',
    });
    i = end;
  }
  return blocks;
}

describe('README', () => {
  it('every TypeScript block compiles as written, with its own imports, under strict settings', async () => {
    const blocks = await readmeBlocks();
    expect(blocks.length).toBeGreaterThan(10);
    // Every fence that says TypeScript is checked (a ```tsx one was skipped before).
    const fences =
      (await readFile(join(root, 'README.md'), 'utf8')).match(/^```(ts|tsx|typescript)\b.*$/gm) ?? [];
    expect(blocks.length).toBe(fences.length);
    const dir = join(root, '.test-output', 'readme-blocks');
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    // Each block is its own module: a name it uses must be imported or defined in that block.
    const files = await Promise.all(
      blocks.map(async ({ line, code, extension }) => {
        const file = `readme-line-${line}.${extension}`;
        await writeFile(join(dir, file), `${code}\nexport {};\n`);
        return file;
      }),
    );
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { strict: true, noEmit: true, noUnusedLocals: false, jsx: 'react-jsx' },
        include: [],
        files,
      }),
    );
    const { stdout, exitCode } = await promisify(execFile)(
      process.execPath,
      [tsc, '-p', join(dir, 'tsconfig.json')],
      {
        cwd: root,
      },
    ).then(
      ({ stdout }) => ({ stdout, exitCode: 0 }),
      (error: { stdout: string; code: number }) => ({ stdout: error.stdout, exitCode: error.code }),
    );
    expect(stdout).toBe('');
    expect(exitCode).toBe(0);
  }, 120_000);
});
